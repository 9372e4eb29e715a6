// HTTP for the governance API (SPEC §5.7). Input goes unvalidated by Elysia into the governance
// validators, so HTTP reports exactly the codes and fields the SDK throws (SPEC §5.6); the route
// specs document the same schemas.
import { router } from "./router";
import { spec, type RouteSpec } from "./route-spec";
import type { Services } from "~/services";
import { plainInteger } from "~/shared/validate";
import { notFound } from "~/shared/errors";
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
      ({ body }) => s.governance.setPolicy(body),
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
      ({ query }) => s.governance.getPolicy(scopeOf(query)),
      doc("The effective policy of a scope (none = global defaults)", { query: PolicyQuery }, GovernancePolicy, {
        examples: { response: GDPR },
        access: ACCESS.orgRead,
      }),
    )
    .delete(
      "/policies",
      ({ query }) => s.governance.removePolicy(scopeOf(query)),
      doc("Remove the policy of an organization or memory space", { query: PolicyQuery }, RemovePolicyResult, {
        description:
          "The scope falls back to the next level of the hierarchy (a space to its organization's policy, an organization to the global defaults). The policy is kept as history and the removal is written to the audit log. Records keep the minimum retention they earned while it applied.",
      }),
    )
    .put(
      "/overrides/:memorySpaceId",
      async ({ params, body }): Promise<typeof OverrideResult.static> => {
        await s.governance.setAgentOverride(params.memorySpaceId, body);
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
      ({ body }) => s.governance.enforce(body),
      doc("Run retention and purging now", { body: EnforceOptions }, EnforcementResult),
    )
    .post(
      "/simulate",
      ({ body }) => s.governance.simulate(body),
      doc("Dry-run a (partial) policy on the real data", { body: GovernancePolicyPatch }, SimulationImpact, {
        examples: { body: { organizationId: "acme", vector: patch } },
        writes: false,
      }),
    )
    .post(
      "/compliance-report",
      ({ body }) => s.governance.getComplianceReport(body),
      doc("Compliance report for a period", { body: ComplianceReportOptions }, ComplianceReport, { writes: false }),
    )
    .get(
      "/stats",
      ({ query }) => s.governance.getEnforcementStats({ period: query.period }),
      doc("Enforcement statistics over 7d, 30d, 90d or 1y", { query: StatsOptions }, EnforcementStats),
    )
    .get(
      "/audit",
      ({ query, request }) =>
        s.governance.audit.query({
          from: plainInteger(query.from),
          to: plainInteger(query.to),
          limit: plainInteger(query.limit),
          organizationId: ownOrg(request, str(query.organizationId)),
        }),
      doc("Audit log entries between from and to", { query: AuditQuery }, AuditEntries),
    );

/**
 * The caller's organization, which a read of organization-wide records may name (SPEC §8): naming another
 * one is NOT_FOUND, as another organization's ids are.
 */
function ownOrg(request: Request, named: string | undefined): string {
  const { org } = orgScopeOf(request);
  if (named && named !== org) throw notFound("organization", named);
  return org;
}

/** The scope ids of a query string (GET and DELETE /governance/policies). */
function scopeOf(query: Record<string, unknown>): Record<string, string> {
  const scope: Record<string, string> = {};
  for (const k of ["organizationId", "memorySpaceId"] as const) if (query[k] !== undefined) scope[k] = String(query[k]);
  return scope;
}
