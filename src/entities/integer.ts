// Integers in response schemas. Elysia's `t.Integer` is a transform (it coerces strings), and one transform
// anywhere in a response schema sends every response through TypeBox's slow Value.Encode.
import { Type, type IntegerOptions } from "@sinclair/typebox";

export const Int = (options?: IntegerOptions) => Type.Integer(options);
