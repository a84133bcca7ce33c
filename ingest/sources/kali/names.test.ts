import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../services/core/errors.ts";
import { loadAgreementNames } from "./names.ts";

describe("usual names of collective agreements (ingest/rules/agreement-names.yaml)", () => {
  it("loads the shipped file, by IDCC without leading zeros", () => {
    const names = loadAgreementNames();
    expect(names.get("1486")).toEqual(["Syntec"]);
    expect(names.get("413")).toEqual(["CCN 66"]);
    for (const idcc of names.keys()) expect(idcc).toMatch(/^[1-9]\d{0,4}$/);
  });

  it("refuses a damaged file naming the field", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "names-")), "names.yaml");
    writeFileSync(file, 'version: 1\nnames:\n  "syntec": [Syntec]\n');
    let error: unknown;
    try {
      loadAgreementNames(file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("names.syntec");
  });
});
