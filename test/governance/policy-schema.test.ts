import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { GovernancePolicy, GovernancePolicyPatch } from "~/governance/policy.schema";
import {
  ComplianceReportOptions,
  EnforceOptions,
  SimulationImpact,
  StatsOptions,
} from "~/governance/operations.schema";
import { getTemplate } from "~/governance/templates";
import { simulationImpact } from "~/governance/plan-summary";

describe("policy schemas", () => {
  test.each(["GDPR", "HIPAA", "SOC2", "FINRA"])("the %s template matches GovernancePolicy", (name) => {
    expect(Value.Check(GovernancePolicy, { organizationId: "o", ...getTemplate(name) })).toBe(true);
  });

  test("the patch schema lets validate.ts report missing parts and bad values itself", () => {
    expect(Value.Check(GovernancePolicyPatch, {})).toBe(true);
    expect(Value.Check(GovernancePolicyPatch, { conversations: { retention: { deleteAfter: "7years" } } })).toBe(true);
    expect(
      Value.Check(GovernancePolicyPatch, {
        immutable: { retention: { defaultVersions: -5, byType: { a: {} } } },
        compliance: { mode: "Foo" },
      }),
    ).toBe(true);
    expect(Value.Check(EnforceOptions, { scope: {}, layers: ["nope"] })).toBe(true);
  });

  test("the options schemas say which parts the validators require: enforce's scope, the period of stats and reports", () => {
    expect(EnforceOptions.required).toEqual(["scope"]);
    expect(StatsOptions.required).toEqual(["period"]);
    expect(ComplianceReportOptions.required).toEqual(["period"]);
  });

  test("every schema carries a description for the OpenAPI document", () => {
    expect(GovernancePolicy.description).toBeTruthy();
    expect(GovernancePolicy.properties.conversations.properties.retention.properties.deleteAfter.description).toContain(
      "Duration",
    );
  });

  test("simulationImpact answers the SimulationImpact shape", () => {
    expect(Value.Check(SimulationImpact, simulationImpact({}))).toBe(true);
  });
});
