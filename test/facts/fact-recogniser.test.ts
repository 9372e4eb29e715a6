// The rule-based fact recogniser, one sentence per row: every claim as [subject, attribute, value, op,
// qualifier?, "replaces X"?], exactly (a new false claim fails its row too).
import { describe, expect, test } from "bun:test";
import { recogniseClaims } from "~/facts/fact-recogniser";
import { isList, valueKey } from "~/facts/fact-claims";

const CASES: [string, string[][]][] = [
  ["I live in Berlin.", [["user", "home", "Berlin", "set"]]],
  ["I moved to Lisbon last month.", [["user", "home", "Lisbon", "set"]]],
  ["My sister moved to Rome.", [["rel:sister", "home", "Rome", "set"]]],
  ["I used to live in Berlin.", [["user", "home", "Berlin", "past"]]],
  [
    "I don't live in Paris anymore, I moved to Lyon.",
    [
      ["user", "home", "Paris", "end"],
      ["user", "home", "Lyon", "set"],
    ],
  ],
  ["If I ever moved to Lisbon, I'd learn Portuguese.", []],
  ["My friend asked if I moved to Lisbon.", []],
  ["Where should I eat in Rome tonight?", []],
  [
    "I'm a data analyst at Spotify.",
    [
      ["user", "job_title", "data analyst", "set", "spotify"],
      ["user", "employer", "Spotify", "set"],
    ],
  ],
  [
    "I left Spotify and now work for Klarna.",
    [
      ["user", "employer", "Spotify", "end"],
      ["user", "employer", "Klarna", "set"],
    ],
  ],
  ["My new manager is Rui.", [["user", "manager", "Rui", "set"]]],
  ["Luis is no longer my manager.", [["user", "manager", "Luis", "end"]]],
  ["Alex and I split up last month.", [["user", "partner", "Alex", "end"]]],
  ["My brother Tom lives in Leeds.", [["rel:brother:tom", "home", "Leeds", "set"]]],
  [
    "I have two dogs, Rex and Fido.",
    [
      ["user", "pet", "Rex", "set", "dog"],
      ["user", "pet", "Fido", "set", "dog"],
    ],
  ],
  ["Milo passed away last week.", [["user", "pet", "Milo", "end"]]],
  ["I don't have a parrot anymore.", [["user", "pet", "*", "end", "parrot"]]],
  ["I'm no longer allergic to penicillin.", [["user", "allergy", "penicillin", "end"]]],
  [
    "I'm allergic to latex and bee stings.",
    [
      ["user", "allergy", "latex", "set"],
      ["user", "allergy", "bee stings", "set"],
    ],
  ],
  ["My new email address is ana.silva@example.org.", [["user", "email", "ana.silva@example.org", "set"]]],
  ["My work email is ana@acme.com.", [["user", "email:work", "ana@acme.com", "set"]]],
  ["I switched from VS Code to Neovim.", [["user", "tool", "Neovim", "switch", "editor", "replaces VS Code"]]],
  ["I switched to macOS.", [["user", "tool", "macOS", "switch", "os"]]],
  ["We moved from Jira to Linear.", [["user", "tool", "Linear", "switch", "tracker", "replaces Jira"]]],
  [
    "I speak English and Spanish.",
    [
      ["user", "language", "English", "set"],
      ["user", "language", "Spanish", "set"],
    ],
  ],
  ["My weekly standup moved to Tuesdays at 10am.", [["user", "schedule:standup", "Tuesdays at 10am", "set"]]],
  ["We postponed the Japan trip to October.", [["user", "plan:trip:japan", "October", "set"]]],
  ["I cancelled my trip to Peru.", [["user", "plan:trip:peru", "*", "end"]]],
  ["I just turned 35.", [["user", "age", "35", "set"]]],
  ["Sorry, my mom's name is Marie, not Maria.", [["user", "relative:mother", "Marie", "correct", "replaces Maria"]]],
  ["My cat's name is actually Tim.", [["user", "pet", "Tim", "correct", "cat"]]],
  [
    "I'm vegetarian and allergic to nuts.",
    [
      ["user", "diet", "vegetarian", "set"],
      ["user", "allergy", "nuts", "set"],
    ],
  ],
  ["Now I report to Leila instead.", [["user", "manager", "Leila", "set"]]],
  ["Just moved into a house in Sheffield!", [["user", "home", "Sheffield", "set"]]],
  ["Max is my mother's cat, I took him in.", []],
  ["It feels like I'm an assistant manager now.", [["user", "job_title", "assistant manager", "set"]]],
  ["User lives in Berlin.", [["user", "home", "Berlin", "set"]]],
  ["The user's new manager is Rui.", [["user", "manager", "Rui", "set"]]],
  ["The quarterly sales report is due Friday.", []],
  ["what a lovely day in the park with friends", []],
];

describe("recogniseClaims", () => {
  for (const [sentence, expected] of CASES)
    test(`"${sentence}"`, () => {
      expect(
        recogniseClaims(sentence).map((c) => [
          c.subject,
          c.attribute,
          c.value,
          c.op,
          ...(c.qualifier ? [c.qualifier] : []),
          ...(c.replaces ? [`replaces ${c.replaces}`] : []),
        ]),
      ).toEqual(expected);
    });

  test("a claim stated twice in one memory is one claim", () => {
    expect(recogniseClaims("I live in Berlin. I live in Berlin!")).toHaveLength(1);
  });
});

describe("values and attributes", () => {
  test("phone numbers compare by digits, emails by lower case, allergies without a plural s", () => {
    expect(valueKey("phone", "+44 20 7946-0958")).toBe(valueKey("phone", "+442079460958"));
    expect(valueKey("email", "Ana@Example.com")).toBe("ana@example.com");
    expect(valueKey("allergy", "bee stings")).toBe(valueKey("allergy", "bee sting"));
    expect(valueKey("pet", "Boris")).toBe("boris");
  });

  test("schedules compare by the days, times and months they name", () => {
    expect(valueKey("schedule:standup", "9:30")).toBe(valueKey("schedule:standup", "9:30 every day"));
    expect(valueKey("schedule:standup", "Mondays at 9am")).not.toBe(valueKey("schedule:standup", "Tuesdays at 9am"));
  });

  test("allergies, pets, languages, tools and siblings are lists; home, employer and a mother are one value", () => {
    expect(["allergy", "pet", "language", "tool", "relative:sister"].map(isList)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["home", "employer", "relative:mother", "manager"].map(isList)).toEqual([false, false, false, false]);
  });
});
