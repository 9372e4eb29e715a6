// HTTP for the governance API (SPEC §5.7). Input goes unvalidated by Elysia into the governance
// validators, so HTTP reports exactly the codes and fields the SDK throws (SPEC §5.6); the route
// specs document the same schemas.
import { router } from "./router";
import { spec, type RouteSpec } from "./route-spec";
import type { Services } from "~/services";
import { plainInteger } from "~/shared/validate";
import { ownOrg } from "~/governance/caller-org";
import { orgScopeOf } from "./access";
import { GovernancePolicy, GovernancePolicyPatch, PolicyResult } from "~/governance/policy.schema";
import {
  AuditEntries,
  AuditQuery,
  ComplianceReport,
  ComplianceReportOptions,
  EnforceOptions,
  EnforcementResult,
  EnforcementStats,
  MemorySpacePath,
  OverrideResult,
  PolicyQuery,
  PolicyTemplate,
  RemovePolicyResult,
  SimulationImpact,
  StatsOptions,
  TemplatePath,
} from "~/governance/operations.schema";
import { getTemplate } from "~/governance/templates";
import { ACCESS, type Access } from "~/identity/access";

type Input = NonNullable<RouteSpec["governance"]>;
type Extra = Pick<RouteSpec, "description" | "examples" | "errors" | "writes"> & { access?: Access };
/** Governance needs an admin key (SPEC §8), except reading policies and templates. */
const doc = (summary: string, governance: Input, response: RouteSpec["response"], more: Extra = {}) =>
  spec({ tag: "governance", summary, governance, response, access: ACCESS.admin, ...more });
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
// A whole policy is long: its examples are the built-in templates, not copies written here.
const GDPR = { organizationId: "acme", ...getTemplate("GDPR") };
const patch = { retention: { defaultVersions: 3 } };

export const governanceRoutes = (s: Services) =>
  router("/governance")
    .post(
      "/policies",
      ({ body, request }) => s.governance.setPolicy(body, callerOrg(request)),
      doc("Set the policy of an organization or memory space", { body: GovernancePolicy }, PolicyResult, {
        examples: {
          body: GDPR,
          response: {
            success: true,
            policyId: "0193a6b2-c3d5-7f60-8a1b-2c3d4e5f6a7b",
            appliedAt: Date.UTC(2026, 5, 1),
            scope: { organizationId: "acme" },
          },
        },
      }),
    )
    .get(
      "/policies",
      ({ query, request }) => s.governance.getPolicy(scopeOf(query), callerOrg(request)),
      doc("The effective policy of a scope (none = global defaults)", { query: PolicyQuery }, GovernancePolicy, {
        examples: { response: GDPR },
        access: ACCESS.orgRead,
      }),
    )
    .delete(
      "/policies",
      ({ query, request }) => s.governance.removePolicy(scopeOf(query), callerOrg(request)),
      doc("Remove the policy of an organization or memory space", { query: PolicyQuery }, RemovePolicyResult, {
        description:
          "The scope falls back to the next level of the hierarchy (a space to its organization's policy, an organization to the global defaults). The policy is kept as history and the removal is written to the audit log. Records keep the minimum retention they earned while it applied.",
      }),
    )
    .put(
      "/overrides/:memorySpaceId",
      async ({ params, body, request }): Promise<typeof OverrideResult.static> => {
        await s.governance.setAgentOverride(params.memorySpaceId, body, callerOrg(request));
        return { success: true, memorySpaceId: params.memorySpaceId };
      },
      doc(
        "Deep-merge an override into a memory space's policy",
        { params: MemorySpacePath, body: GovernancePolicyPatch },
        OverrideResult,
        { examples: { body: { vector: patch } } },
      ),
    )
    .get(
      "/templates/:name",
      ({ params }) => s.governance.getTemplate(params.name),
      doc("A compliance template (GDPR, HIPAA, SOC2, FINRA)", { params: TemplatePath }, PolicyTemplate, {
        examples: { response: getTemplate("GDPR") },
        access: ACCESS.orgRead,
      }),
    )
    .post(
      "/enforce",
      ({ body, request }) => s.governance.enforce(body, callerOrg(request)),
      doc("Run retention and purging now", { body: EnforceOptions }, EnforcementResult),
    )
    .post(
      "/simulate",
      ({ body, request }) => s.governance.simulate(body, callerOrg(request)),
      doc("Dry-run a (partial) policy on the real data", { body: GovernancePolicyPatch }, SimulationImpact, {
        examples: { body: { organizationId: "acme", vector: patch } },
        writes: false,
      }),
    )
    .post(
      "/compliance-report",
      ({ body, request }) => s.governance.getComplianceReport(body, callerOrg(request)),
      doc("Compliance report for a period", { body: ComplianceReportOptions }, ComplianceReport, { writes: false }),
    )
    .get(
      "/stats",
      ({ query, request }) => s.governance.getEnforcementStats({ period: query.period }, callerOrg(request)),
      doc("Enforcement statistics over 7d, 30d, 90d or 1y", { query: StatsOptions }, EnforcementStats),
    )
    .get(
      "/audit",
      ({ query, request }) =>
        s.governance.audit.query({
          from: plainInteger(query.from),
          to: plainInteger(query.to),
          limit: plainInteger(query.limit),
          organizationId: ownOrg(callerOrg(request), str(query.organizationId) || undefined),
        }),
      doc("Audit log entries between from and to", { query: AuditQuery }, AuditEntries),
    );

/** The caller's organization: every governance operation is its (governance/caller-org.ts). */
const callerOrg = (request: Request): string => orgScopeOf(request).org;

/** The scope ids of a query string (GET and DELETE /governance/policies). */
function scopeOf(query: Record<string, unknown>): Record<string, string> {
  const scope: Record<string, string> = {};
  for (const k of ["organizationId", "memorySpaceId"] as const) if (query[k] !== undefined) scope[k] = String(query[k]);
  return scope;
}
