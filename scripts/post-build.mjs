// Trunk's post_build hook: the steps in order (see Trunk.toml).
await import('./csp-hash.mjs');
await import('./service-worker.mjs');
