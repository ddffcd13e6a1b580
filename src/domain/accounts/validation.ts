// Collects validation problems in Mastodon's `details` shape (API.md §3.6) and throws them as one 422 whose
// message reads like Rails' "Validation failed: Username can't be blank, Agreement must be accepted".
import { Unprocessable, type ErrorDetails } from "../../lib/errors.ts";

export class Problems {
  readonly details: ErrorDetails = {};

  add(field: string, error: string, description: string): void {
    (this.details[field] ??= []).push({ error, description });
  }

  has(field: string): boolean {
    return field in this.details;
  }

  /** Throws Unprocessable listing every problem, if there is any. */
  throwIfAny(): void {
    const fields = Object.keys(this.details);
    if (fields.length === 0) return;
    const messages = fields.flatMap((field) => this.details[field]!.map((p) => `${humanise(field)} ${p.description}`));
    throw new Unprocessable(`Validation failed: ${messages.join(", ")}`, this.details);
  }
}

function humanise(field: string): string {
  const words = field.replace(/[._\[\]]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Length in characters (code points), as Ruby counts a String. */
export function charLength(text: string): number {
  return [...text].length;
}

export const tooLong = (max: number) => `is too long (maximum is ${max} characters)`;
