/**
 * A new content thread's first pages run on cold code: V8 interprets, then compiles, every function
 * of the pipeline while it converts them (the first real pages after a worker starts cost ~1.5× the
 * CPU of later ones, bench:scrape "cold"). A warm-up converts one built-in article page a few times
 * through the path fetched pages take (decode, JavaScript and wall checks, conversion, cache
 * compression) as soon as the pool starts its threads, so the first real pages find the code hot.
 */
import { runRawPageTask } from './content.task';

/** What a content thread is handed to warm up (instead of a page). */
export interface WarmUpTask {
  warmUp: number;
}

export const isWarmUpTask = (task: object): task is WarmUpTask =>
  typeof (task as Partial<WarmUpTask>).warmUp === 'number';

const WORDS =
  'harbour committee timetable residents ferry spring council budget evening station weather market library teachers river bridge'.split(
    ' ',
  );

/** Deterministic prose: `n` sentences of ordinary words. */
function prose(seed: number, n: number): string {
  const out: string[] = [];
  for (let s = 0; s < n; s++) {
    const words: string[] = [];
    for (let w = 0; w < 12; w++) words.push(WORDS[(seed * 7 + s * 5 + w * 3) % WORDS.length] as string);
    out.push(`${words.join(' ')}.`);
  }
  return out.join(' ').replace(/^./, (c) => c.toUpperCase());
}

/** A news-like page (~60 KB): head metadata, navigation, an article with the usual elements, a footer. */
function articlePage(): string {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join(
    '',
  );
  const body: string[] = ['<h1>The harbour committee and the new ferry timetable</h1>'];
  for (let i = 0; i < 24; i++) {
    if (i % 6 === 0) body.push(`<h2>Part ${i / 6 + 1}</h2>`);
    body.push(
      `<p>${prose(i, 5)} <a href="/story/${i}">Related</a> and <strong>${prose(i + 1, 1)}</strong></p>`,
    );
    if (i % 8 === 3) body.push(`<ul>${[1, 2, 3, 4].map((k) => `<li>${prose(i + k, 1)}</li>`).join('')}</ul>`);
    if (i % 8 === 5)
      body.push(
        `<figure><img src="/img/${i}.jpg" alt="Photo ${i}" srcset="/img/${i}-2x.jpg 2x"><figcaption>${prose(i, 1)}</figcaption></figure>`,
      );
    if (i % 12 === 7) body.push(`<blockquote><p>${prose(i, 2)}</p></blockquote>`);
    if (i === 10)
      body.push(
        `<table><tr><th>Stop</th><th>Time</th></tr>${[1, 2, 3].map((k) => `<tr><td>Pier ${k}</td><td>0${k}:15</td></tr>`).join('')}</table>`,
      );
  }
  const related = Array.from(
    { length: 12 },
    (_, i) =>
      `<div class="card"><a href="/more/${i}"><h3>${prose(i, 1)}</h3></a><p>${prose(i + 3, 1)}</p></div>`,
  ).join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The harbour committee and the new ferry timetable | Example News</title>' +
    '<meta name="description" content="The committee met on Tuesday."><meta property="og:title" content="The harbour committee">' +
    '<meta property="og:image" content="/img/lead.jpg"><link rel="canonical" href="https://news.example/ferry">' +
    '<script type="application/ld+json">{"@type":"NewsArticle","headline":"The harbour committee","author":{"name":"A. Writer"},"datePublished":"2024-05-02"}</script>' +
    '<style>.card{margin:1em}</style><script>window.dataLayer=[];</script></head><body>' +
    `<header><a href="/">Example News</a><nav><ul>${nav}</ul></nav><form><input name="q"><button>Search</button></form></header>` +
    `<main><article><p class="byline">By A. Writer, 2 May 2024</p>${body.join('')}</article>` +
    `<aside><h2>Most read</h2>${related}</aside></main>` +
    `<footer><p>© Example News</p><ul>${nav}</ul></footer></body></html>`
  );
}

/** Convert the built-in page `rounds` times, as a fetched page (bytes in, every check, markdown out). */
export function warmUp(rounds: number): void {
  const bytes = Buffer.from(articlePage(), 'utf8');
  for (let i = 0; i < rounds; i++) {
    runRawPageTask({
      raw: new Uint8Array(bytes),
      contentTypeHeader: 'text/html; charset=utf-8',
      body: '',
      contentType: 'text/html',
      finalUrl: `https://news.example/ferry?warm=${i}`,
      sourceUrl: `https://news.example/ferry?warm=${i}`,
      statusCode: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      format: 'markdown',
      onlyMainContent: true,
      links: false,
      formats: ['markdown'],
      jsCheck: true,
      cacheBody: true,
    });
  }
}
