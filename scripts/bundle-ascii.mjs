// Makes a bundle's modules ASCII (each as esbuild loads it, so the bundle's source map stays
// right), so that its loader can read the bundle as latin1 and V8 keeps it as a one-byte string:
// a source with a single character above U+00FF is held as two bytes per character (a 10 MB
// bundle, 20 MB of heap for as long as the process runs) and is decoded from UTF-8 on every start
// (~75 ms here).
//
// esbuild escapes strings, identifiers and untagged templates itself (`charset: 'ascii'`, its
// default) but leaves regular-expression literals and tagged templates as written. Here, with
// acorn's parse of each module that has any:
// - a regex literal's non-ASCII characters become `\uXXXX` (each UTF-16 unit: a surrogate pair
//   means the same code point in `u`/`v` mode, and is what the literal held otherwise);
// - a `String.raw` template's chunk that holds any becomes a substitution of the same text
//   (String.raw`a’b` -> String.raw`${"a\u2019b"}`: the raw text and a substitution concatenate
//   to the same string);
// - comments are escaped too (they mean nothing).
// What is left (another tag's template, a module acorn cannot parse) stays as written: the build
// then says where, and the loader reads the bundle as UTF-8.
import { parse } from 'acorn';
import { simple } from 'acorn-walk';

// Any UTF-16 unit above 0x7F (written as a range: the lint refuses control characters in a class).
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;
const unit = (ch) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A regex literal's text with its non-ASCII units escaped (an identity escape `\’` is the unit). */
function escapeRegex(text) {
  return text.replace(
    /(\\*)([\u0080-\uffff])/g,
    (_m, slashes, ch) => (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + unit(ch),
  );
}

const asciiString = (s) => JSON.stringify(s).replace(NON_ASCII_ALL, unit);

/** `source` (a script, else a module) with the edits above; unchanged when acorn cannot parse it. */
export function asciiSource(source) {
  if (!NON_ASCII.test(source)) return source;
  for (const sourceType of ['script', 'module']) {
    try {
      return escapeParsed(source, sourceType);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
    }
  }
  return source;
}

/** Where `text` still has non-ASCII characters: up to `max` offsets, each with the text around it. */
export function nonAsciiPlaces(text, max = 10) {
  const places = [];
  for (const m of text.matchAll(NON_ASCII_ALL)) {
    if (places.length >= max) break;
    places.push({ at: m.index, near: text.slice(Math.max(0, m.index - 40), m.index + 10) });
  }
  return places;
}

function escapeParsed(source, sourceType) {
  const edits = [];
  const ast = parse(source, {
    ecmaVersion: 'latest',
    sourceType,
    allowHashBang: true,
    allowReturnOutsideFunction: true,
    onToken: (tok) => {
      if (tok.type.label !== 'regexp') return;
      const text = source.slice(tok.start, tok.end);
      if (NON_ASCII.test(text)) edits.push({ start: tok.start, end: tok.end, text: escapeRegex(text) });
    },
    onComment: (_block, text, start, end) => {
      if (NON_ASCII.test(text)) {
        const raw = source.slice(start, end);
        edits.push({ start, end, text: raw.replace(NON_ASCII_ALL, unit) });
      }
    },
  });
  simple(ast, {
    TaggedTemplateExpression(node) {
      const tag = node.tag;
      const isRaw =
        tag.type === 'MemberExpression' &&
        !tag.computed &&
        tag.object.type === 'Identifier' &&
        tag.object.name === 'String' &&
        tag.property.name === 'raw';
      if (!isRaw) return;
      for (const quasi of node.quasi.quasis) {
        const raw = source.slice(quasi.start, quasi.end);
        if (NON_ASCII.test(raw))
          edits.push({ start: quasi.start, end: quasi.end, text: `\${${asciiString(raw)}}` });
      }
    },
  });
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += source.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + source.slice(at);
}
