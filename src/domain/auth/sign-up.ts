// The sign-up form (/auth/sign_up): what the page shows (mode, rules) and the sign-up itself, through the
// same signUp() as POST /api/v1/accounts, so limits, reserved names, e-mail domain blocks, approval and the
// confirmation mail behave identically. The form adds the password confirmation.
import type { Deps } from "../../deps.ts";
import type { RegistrationMode } from "../../config.ts";
import { Unprocessable } from "../../lib/errors.ts";
import type { PreparedAccount } from "../accounts/create.ts";
import { signUp } from "../accounts/register.ts";
import { registrationMode } from "../instance/registrations.ts";
import { instanceRules } from "../instance/rules.ts";
import type { RuleRecord } from "../../model/instance.ts";

export interface SignUpFacts {
  mode: RegistrationMode;
  rules: RuleRecord[];
  confirmationRequired: boolean;
}

export function signUpFacts(deps: Deps): SignUpFacts {
  return { mode: registrationMode(deps), rules: instanceRules(deps), confirmationRequired: deps.config.requireEmailConfirmation };
}

export interface SignUpForm {
  username?: string;
  email?: string;
  password?: string;
  password_confirmation?: string;
  agreement?: string;
  reason?: string;
}

export async function signUpFromForm(deps: Deps, form: SignUpForm, clientIp: string | null): Promise<PreparedAccount> {
  if ((form.password ?? "") !== (form.password_confirmation ?? "")) {
    const description = "doesn't match Password";
    throw new Unprocessable(`Validation failed: Password confirmation ${description}`, { password_confirmation: [{ error: "ERR_CONFIRMATION", description }] });
  }
  const input = { username: form.username, email: form.email, password: form.password, agreement: form.agreement, reason: form.reason };
  return signUp(deps, input, { appId: null, clientIp }, (prepared) => prepared);
}
