// Types of the two modules of rate-limiter-flexible that windows.ts imports directly (the package types its index only).
declare module "rate-limiter-flexible/lib/RateLimiterMemory.js" {
  export { RateLimiterMemory as default } from "rate-limiter-flexible";
}
declare module "rate-limiter-flexible/lib/RateLimiterRes.js" {
  export { RateLimiterRes as default } from "rate-limiter-flexible";
}
