import type { Domain } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";
import type { Principal } from "./keys.ts";

export interface DomainFilter {
  /** Null: no domain filter at all. */
  domains: Domain[] | null;
  /** True when the key's own restriction supplied the filter. */
  restrictedByKey: boolean;
}

/**
 * What a request may see: the domains it asked for, within the key's. Asking for a domain outside
 * the key's is 403 (spec section 4, rule 3), never a silently shorter list; asking for nothing on a
 * restricted key means the key's domains, and the response says so.
 */
export function authorizeDomains(who: Principal, requested: Domain[] | undefined): DomainFilter {
  if (requested?.length) {
    const outside = who.domains ? requested.filter((d) => !who.domains!.includes(d)) : [];
    if (outside.length > 0) {
      throw new AppError(
        "forbidden",
        `This key is limited to ${who.domains!.join(", ")}; it may not use ${outside.join(", ")}.`,
      );
    }
    return { domains: requested, restrictedByKey: false };
  }
  if (who.domains) return { domains: who.domains, restrictedByKey: true };
  return { domains: null, restrictedByKey: false };
}

export function mayUse(who: Principal, domain: Domain): boolean {
  return who.domains === null || who.domains.includes(domain);
}

/**
 * Reading one provision (or a provision's versions) by id with a key limited to some fields of law:
 * allowed when the provision is classified under one of them, 403 otherwise (an unclassified
 * provision cannot be shown to be inside them).
 */
export function ensureMayRead(who: Principal, domains: readonly string[], what: string): void {
  if (who.domains === null || domains.some((d) => who.domains!.includes(d as Domain))) return;
  throw new AppError(
    "forbidden",
    `This key is limited to ${who.domains.join(", ")}; ${what} is ${
      domains.length ? `classified under ${domains.join(", ")}` : "not classified in any field of law"
    }.`,
  );
}
