// Edits to bundled libraries' top-level code that costs the one-process start and that the process
// never needs (scripts/bundle-entry.mjs applies them as esbuild loads each module): pg and undici
// load Node's own fetch (its internal undici, 15-40 ms of compiling) only to look at a global;
// msgpackr loads its native addon (~25 ms: resolving and dlopen) that nothing here uses; ioredis
// hashes each Lua script and makes a command class for it on every connection, and parses all of
// INFO in every connection's ready check for three fields; mime-types builds a review aid.
// Each edit must find its text: a library update that changes it fails the build instead of
// silently bringing the cost back or changing what the library does.

/** [file pattern, text, replacement, why]. */
const PATCHES = [
  [
    /\/node_modules\/pg\/lib\/stream\.js$/,
    "if (typeof Response === 'function') {",
    'if (false) {',
    // The Cloudflare Workers probe: on Node a Response never carries `cf`, so it answers false.
    'pg: no Response made at load to detect Cloudflare Workers',
  ],
  [
    /\/node_modules\/undici\/lib\/web\/cookies\/index\.js$/,
    'const brandChecks = webidl.brandCheckMultiple([Headers, globalThis.Headers].filter(Boolean))',
    'const brandChecks = (V) => webidl.brandCheckMultiple([Headers, globalThis.Headers].filter(Boolean))(V)',
    // The same check, made when a cookie helper is called (nothing here calls one) instead of at load.
    "undici: the cookie helpers' brand check built when first used",
  ],
  [
    /\/node_modules\/msgpackr\/dist\/node\.cjs$/,
    'if (!nativeAccelerationDisabled) {',
    'if (false) {',
    // The addon only speeds up unpacking strings; BullMQ, msgpackr's one user here, only packs
    // (its Lua scripts unpack with cmsgpack).
    'msgpackr: msgpackr-extract not loaded',
  ],
  [
    /\/node_modules\/ioredis\/built\/utils\/Commander\.js$/,
    'const script = new Script_1.default(definition.lua, definition.numberOfKeys, this.options.keyPrefix, definition.readOnly);',
    'const script = sharedScript(definition.lua, definition.numberOfKeys, this.options.keyPrefix, definition.readOnly);',
    // BullMQ defines its ~50 Lua scripts on every connection (34 in the one-process mode), and each
    // definition hashed the script and made a command class (~15 ms of the start). A Script keeps
    // no state of a connection (which sockets have loaded it is a WeakSet by socket), so the
    // connections share one per text and options.
    'ioredis: one Script per Lua text and options, shared by the connections',
  ],
  [
    /\/node_modules\/ioredis\/built\/utils\/Commander\.js$/,
    'class Commander {',
    `const scriptsByText = new Map();
function sharedScript(lua, numberOfKeys, keyPrefix, readOnly) {
    let byOptions = scriptsByText.get(lua);
    if (!byOptions) scriptsByText.set(lua, (byOptions = new Map()));
    const key = \`\${numberOfKeys}|\${readOnly}|\${keyPrefix}\`;
    let script = byOptions.get(key);
    if (!script) byOptions.set(key, (script = new Script_1.default(lua, numberOfKeys, keyPrefix, readOnly)));
    return script;
}
class Commander {`,
    'ioredis: the shared scripts',
  ],
  [
    /\/node_modules\/ioredis\/built\/Redis\.js$/,
    `            const info = {};
            const lines = res.split("\\r\\n");
            for (let i = 0; i < lines.length; ++i) {
                const [fieldName, ...fieldValueParts] = lines[i].split(":");
                const fieldValue = fieldValueParts.join(":");
                if (fieldValue) {
                    info[fieldName] = fieldValue;
                }
            }`,
    `            const info = {};
            for (const fieldName of ["loading", "loading_eta_seconds", "role"]) {
                const at = res.indexOf("\\r\\n" + fieldName + ":");
                if (at === -1) continue;
                const from = at + fieldName.length + 3;
                const end = res.indexOf("\\r\\n", from);
                const fieldValue = res.slice(from, end === -1 ? undefined : end);
                if (fieldValue) {
                    info[fieldName] = fieldValue;
                }
            }`,
    // Every connection's ready check parsed the whole INFO answer (~200 fields, ~5 KB) into an
    // object (~13 ms of the one-process start over its 34 connections, and again on every
    // reconnect); only these three are read: whether Redis is still loading its data, for how
    // long, and (Sentinel) the node's role.
    'ioredis: the ready check reads the INFO fields it uses',
  ],
  [
    /\/node_modules\/mime-types\/index\.js$/,
    `      const legacyType = _preferredTypeLegacy(
        extension,
        types[extension],
        type
      )
      if (legacyType !== types[extension]) {
        exports._extensionConflicts.push([extension, legacyType, types[extension]])
      }`,
    '',
    // A review aid ("DELETE (eventually)") that lists which extensions the new scoring maps
    // differently: its lookups key by the module's `extension` function (its source as a string)
    // for each of ~1,200 extensions, ~8 ms of the gateway's start. Nothing reads the list.
    "mime-types: no list of the old scoring's conflicts built at load",
  ],
];

/** `text` of the module at `file` with the edits meant for it; throws when one no longer applies. */
export function patchSource(file, text) {
  let out = text;
  for (const [pattern, from, to, why] of PATCHES) {
    if (!pattern.test(file.replaceAll('\\', '/'))) continue;
    if (!out.includes(from)) throw new Error(`[bundle] ${why}: "${from}" not found in ${file}`);
    out = out.replace(from, to);
  }
  return out;
}
