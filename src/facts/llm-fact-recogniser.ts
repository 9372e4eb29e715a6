// Fact claims from an OpenAI-compatible model (EXTRACTOR_LLM_*): the same claim shape and the same
// supersede decision as the rules, read by the model with the user's current facts as context;
// the rules answer when the model fails.
import { Type } from "@sinclair/typebox";
import { chatJson, type LlmExtractorOptions } from "~/graph/llm-extractor";
import { personSubject, relSubject, SELF_SUBJECT, type Claim } from "./fact-claims";
import type { FactRecogniser, KnownFact } from "./fact-recogniser";

/** Known facts shown to the model: the newest, enough for a correction to name what it corrects. */
export const KNOWN_FACTS_SHOWN = 40;

const PROMPT = `You read one memory a user stored and say which facts about people it states.
Reply with a JSON object only: {"facts": [...]}, each fact:
{"subject": "user" (the speaker: I, me, my, we) | "rel:<relation>" (e.g. "rel:sister", "rel:sister:anna" when named) | "person:<name>",
 "attribute": one of home, work_location, employer, job_title, manager, partner, relative:<relation>, pet, diet, allergy,
   phone, email, email:work, tool, favourite:<kind>, language, schedule:<thing>, plan:trip:<place>, name, age, birthday,
 "value": the value as written ("Lisbon", "vegan", "555-0199"),
 "op": "set" (holds now) | "end" (no longer holds: "no longer", "not ... anymore", "left", "broke up") |
       "past" ("used to") | "switch" (replaces the others of its kind: "switched from X to Y") |
       "correct" (a correction: "actually", "X, not Y"),
 "qualifier"?: a pet's species, a tool's kind (os, editor, language, tracker), the employer of a job title,
 "replaces"?: the old value a switch or a correction names}.
Known facts of this user (JSON, newest first) are given for context: a correction may refer to one of them.
Only facts the memory states as true of a person; nothing for questions, wishes, plans to consider, or hypotheticals.
No prose, no code fences.`;

const ReplySchema = Type.Object({
  facts: Type.Array(
    Type.Object({
      subject: Type.String({ maxLength: 200 }),
      attribute: Type.String({ maxLength: 100 }),
      value: Type.String({ maxLength: 500 }),
      op: Type.Union(["set", "end", "past", "switch", "correct"].map((o) => Type.Literal(o))),
      qualifier: Type.Optional(Type.String({ maxLength: 100 })),
      replaces: Type.Optional(Type.String({ maxLength: 500 })),
    }),
    { maxItems: 50 },
  ),
});

const ATTRIBUTE = /^[a-z_]+(?::[\p{Ll}\p{N}_-]+){0,2}$/u;

export class LlmFactRecogniser implements FactRecogniser {
  readonly name: string;
  readonly readsKnown = true;

  constructor(private readonly opts: LlmExtractorOptions) {
    this.name = `llm:${opts.model}`;
  }

  async recognise(text: string, known: readonly KnownFact[]): Promise<Claim[]> {
    const user = `Memory: ${JSON.stringify(text)}\nKnown facts: ${JSON.stringify(known.slice(0, KNOWN_FACTS_SHOWN))}`;
    const reply = await chatJson(this.opts, PROMPT, user, ReplySchema, "fact recognition service");
    return reply.facts.flatMap((f) => {
      const subject = normaliseSubject(f.subject);
      const attribute = f.attribute.trim().toLowerCase();
      if (!subject || !ATTRIBUTE.test(attribute) || !f.value.trim()) return [];
      const claim: Claim = { subject, attribute, value: f.value.trim(), op: f.op as Claim["op"] };
      if (f.qualifier?.trim()) claim.qualifier = f.qualifier.trim().toLowerCase();
      if (f.replaces?.trim()) claim.replaces = f.replaces.trim();
      return [claim];
    });
  }
}

/** The rule-based subjects: "user"; "rel:sister" or "rel:sister:anna"; "person:tom". Anything else: dropped. */
function normaliseSubject(raw: string): string | null {
  const s = raw.trim();
  if (/^@?(?:user|me|i|speaker)$/i.test(s)) return SELF_SUBJECT;
  const rel = /^rel:([\p{L} -]+?)(?::(.+))?$/iu.exec(s);
  if (rel) return relSubject(rel[1]!, rel[2]);
  const person = /^person:(.+)$/i.exec(s);
  return person ? personSubject(person[1]!) : null;
}

/** The model, and the rules when it fails (reported, never lost: the memory is stored either way). */
export class FallbackRecogniser implements FactRecogniser {
  readonly name: string;
  readonly readsKnown: boolean;

  constructor(
    private readonly primary: FactRecogniser,
    private readonly fallback: FactRecogniser,
    private readonly onError: (e: unknown) => void = () => {},
  ) {
    this.name = `${primary.name}|${fallback.name}`;
    this.readsKnown = primary.readsKnown || fallback.readsKnown;
  }

  async recognise(text: string, known: readonly KnownFact[]): Promise<Claim[]> {
    try {
      return await this.primary.recognise(text, known);
    } catch (e) {
      this.onError(e);
      return this.fallback.recognise(text, known);
    }
  }
}
