#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx corpus …` works from a clone without a build step.
import { register } from "tsx/esm/api";

register();
await import("../services/runtime/cli.ts");
