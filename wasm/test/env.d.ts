/** Bindings of the test Worker (wasm/test/wrangler.toml plus the test-only MEDIA service). */
declare namespace Cloudflare {
  interface Env {
    MEDIA: Fetcher;
    /** Non-empty to run bench.test.ts. */
    WASM_BENCH: string;
  }
}
