/**
 * A tiny Llama-architecture GGUF with random weights (~0.5 MB), for tests of the embedded model
 * (node-llama-cpp): it loads, tokenizes (SentencePiece-style vocabulary: specials, ChatML markers,
 * printable ASCII and the 256 byte-fallback tokens, so any text encodes), applies its ChatML chat
 * template and decodes under a grammar. Its answers are noise; only their shape can be tested.
 * Format: GGUF v3 — header, key/values, tensor infos, then F32 tensor data aligned to 32 bytes.
 */
import { writeFileSync } from 'node:fs';

const T = { U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;
type Kv =
  | [string, 'u32' | 'f32' | 'str' | 'bool', unknown]
  | [string, 'arr-str' | 'arr-f32' | 'arr-i32', unknown[]];

const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

class Writer {
  private parts: Buffer[] = [];
  size = 0;
  push(b: Buffer) {
    this.parts.push(b);
    this.size += b.length;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(align: number) {
    const n = (align - (this.size % align)) % align;
    if (n) this.push(Buffer.alloc(n));
  }
  buffer() {
    return Buffer.concat(this.parts);
  }
}

export interface TinyGgufOptions {
  embedding?: number;
  layers?: number;
  seed?: number;
  contextLength?: number;
}

/** Writes the model to `path`; returns its size in bytes. */
export function writeTinyGguf(path: string, o: TinyGgufOptions = {}): number {
  const nEmbd = o.embedding ?? 64;
  const nLayer = o.layers ?? 2;
  const nHead = 4;
  const nFf = nEmbd * 2;
  const tokens = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>', '\u2581'];
  const types = [2, 3, 3, 3, 3, 1];
  for (let c = 33; c < 127; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  const nVocab = tokens.length;
  const kvs: Kv[] = [
    ['general.architecture', 'str', 'llama'],
    ['general.name', 'str', 'tiny-random-test-model'],
    ['general.file_type', 'u32', 0],
    ['general.alignment', 'u32', 32],
    ['llama.context_length', 'u32', o.contextLength ?? 16_384],
    ['llama.embedding_length', 'u32', nEmbd],
    ['llama.block_count', 'u32', nLayer],
    ['llama.feed_forward_length', 'u32', nFf],
    ['llama.attention.head_count', 'u32', nHead],
    ['llama.attention.head_count_kv', 'u32', nHead],
    ['llama.rope.dimension_count', 'u32', nEmbd / nHead],
    ['llama.attention.layer_norm_rms_epsilon', 'f32', 1e-5],
    ['llama.vocab_size', 'u32', nVocab],
    ['tokenizer.ggml.model', 'str', 'llama'],
    ['tokenizer.ggml.tokens', 'arr-str', tokens],
    ['tokenizer.ggml.scores', 'arr-f32', tokens.map((_, i) => -i)],
    ['tokenizer.ggml.token_type', 'arr-i32', types],
    ['tokenizer.ggml.unknown_token_id', 'u32', 0],
    ['tokenizer.ggml.bos_token_id', 'u32', 1],
    ['tokenizer.ggml.eos_token_id', 'u32', 4],
    ['tokenizer.ggml.add_bos_token', 'bool', true],
    ['tokenizer.chat_template', 'str', CHATML],
  ];
  const tensors: Array<{ name: string; dims: number[]; norm?: boolean }> = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab] },
    { name: 'output_norm.weight', dims: [nEmbd], norm: true },
    { name: 'output.weight', dims: [nEmbd, nVocab] },
  ];
  for (let i = 0; i < nLayer; i++) {
    tensors.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [nEmbd], norm: true },
      { name: `blk.${i}.attn_q.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.attn_k.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.attn_v.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.attn_output.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.ffn_norm.weight`, dims: [nEmbd], norm: true },
      { name: `blk.${i}.ffn_gate.weight`, dims: [nEmbd, nFf] },
      { name: `blk.${i}.ffn_down.weight`, dims: [nFf, nEmbd] },
      { name: `blk.${i}.ffn_up.weight`, dims: [nEmbd, nFf] },
    );
  }
  const w = new Writer();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kvs.length);
  for (const [key, kind, value] of kvs) {
    w.str(key);
    if (kind === 'u32') {
      w.u32(T.U32);
      w.u32(value as number);
    } else if (kind === 'f32') {
      w.u32(T.F32);
      w.f32(value as number);
    } else if (kind === 'bool') {
      w.u32(T.BOOL);
      w.push(Buffer.from([value ? 1 : 0]));
    } else if (kind === 'str') {
      w.u32(T.STRING);
      w.str(value as string);
    } else {
      const items = value as unknown[];
      w.u32(T.ARRAY);
      w.u32(kind === 'arr-str' ? T.STRING : kind === 'arr-f32' ? T.F32 : T.I32);
      w.u64(items.length);
      for (const it of items) {
        if (kind === 'arr-str') w.str(it as string);
        else if (kind === 'arr-f32') w.f32(it as number);
        else w.i32(it as number);
      }
    }
  }
  let offset = 0;
  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);
  tensors.forEach((t, i) => {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offset);
    offset += Math.ceil((sizes[i] as number) / 32) * 32;
  });
  w.pad(32);
  let x = (o.seed ?? 42) >>> 0;
  const rand = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32 - 0.5;
  };
  tensors.forEach((t, i) => {
    const n = (sizes[i] as number) / 4;
    const data = Buffer.alloc(Math.ceil((sizes[i] as number) / 32) * 32);
    for (let j = 0; j < n; j++) data.writeFloatLE(t.norm ? 1 : rand() * 0.1, j * 4);
    w.push(data);
  });
  const out = w.buffer();
  writeFileSync(path, out);
  return out.length;
}
