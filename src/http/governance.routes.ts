// HTTP for the governance API (SPEC §5.7). Bodies go unvalidated by Elysia into the
// governance validators so HTTP reports exactly the codes and fields the SDK throws.
import { router } from "./router";
import { routeDoc } from "./docs";
import type { TSchema } from "@sinclair/typebox";
import type { Services } from "~/services";
import { plainInteger } from "~/shared/validate";
import { GovernancePolicy, GovernancePolicyPatch, PolicyResult } from "~/governance/policy.schema";
import {
  ComplianceReport,
  ComplianceReportOptions,
  EnforceOptions,
  EnforcementResult,
  EnforcementStats,
  SimulationImpact,
} from "~/governance/operations.schema";

const doc = (summary: string, body?: TSchema, response?: TSchema) =>
  routeDoc("governance", summary, { body, response });
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

export const governanceRoutes = (s: Services) =>
  router("/governance")
    .post(
      "/policies",
      ({ body }) => s.governance.setPolicy(body),
      doc("Set the policy of an organization or memory space", GovernancePolicy, PolicyResult),
    )
    .get(
      "/policies",
      ({ query }) => {
        const scope: Record<string, string> = {};
        for (const k of ["organizationId", "memorySpaceId"] as const)
          if (query[k] !== undefined) scope[k] = String(query[k]);
        return s.governance.getPolicy(scope);
      },
      doc("The effective policy of a scope (none = global defaults)"),
    )
    .put(
      "/overrides/:memorySpaceId",
      ({ params, body }) => {
        s.governance.setAgentOverride(params.memorySpaceId, body);
        return { success: true as const, memorySpaceId: params.memorySpaceId };
      },
      doc("Deep-merge an override into a memory space's policy", GovernancePolicyPatch),
    )
    .get(
      "/templates/:name",
      ({ params }) => s.governance.getTemplate(params.name),
      doc("A compliance template (GDPR, HIPAA, SOC2, FINRA)"),
    )
    .post(
      "/enforce",
      ({ body }) => s.governance.enforce(body),
      doc("Run retention and purging now", EnforceOptions, EnforcementResult),
    )
    .post(
      "/simulate",
      ({ body }) => s.governance.simulate(body),
      doc("Dry-run a (partial) policy on the real data", GovernancePolicyPatch, SimulationImpact),
    )
    .post(
      "/compliance-report",
      ({ body }) => s.governance.getComplianceReport(body),
      doc("Compliance report for a period", ComplianceReportOptions, ComplianceReport),
    )
    .get(
      "/stats",
      ({ query }) => s.governance.getEnforcementStats({ period: query.period }),
      doc("Enforcement statistics over 7d, 30d, 90d or 1y", undefined, EnforcementStats),
    )
    .get(
      "/audit",
      ({ query }) =>
        s.governance.audit.query({
          from: plainInteger(query.from),
          to: plainInteger(query.to),
          limit: plainInteger(query.limit),
          organizationId: str(query.organizationId),
        }),
      doc("Audit log entries between from and to"),
    );
