import { describe, expect, it } from "vitest";
import { planPreview } from "../../../../../src/renderer/components/messages/plan-preview";

describe("planPreview", () => {
  it("shows the plan's first line as words, not its markdown", () => {
    expect(planPreview("## Add a cache\n\n1. Read the code")).toBe("Add a cache");
    expect(planPreview("> **Goal:** faster start-up\n")).toBe("**Goal:** faster start-up");
    expect(planPreview("**Steps**\n- one")).toBe("Steps");
    expect(planPreview("- Read the README\n- Write notes")).toBe("Read the README");
    expect(planPreview("1. Read the README")).toBe("1. Read the README");
  });

  it("skips a heading that only says Plan (the card says \"Plan ready\" already)", () => {
    // The walk-through's plan card read "Plan ready ## Plan".
    expect(planPreview("## Plan\n\n1. Read the README\n2. Check it")).toBe("1. Read the README");
    expect(planPreview("**Implementation plan:**\n\n- Write it")).toBe("Write it");
    expect(planPreview("# Plan")).toBe("Plan");
  });

  it("is empty for a plan with nothing to show", () => {
    expect(planPreview("")).toBe("");
    expect(planPreview("\n  \n>\n")).toBe("");
  });
});
