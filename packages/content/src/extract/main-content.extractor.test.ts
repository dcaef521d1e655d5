import { processHtml } from '../index';

const URL = 'https://example.com/news/story.html';
const prose = (n: number, word = 'content'): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;
const links = (n: number, label: string): string =>
  Array.from({ length: n }, (_, i) => `<li><a href="/${label}/${i}">${label} link ${i}</a></li>`).join('');

describe('chrome removal', () => {
  it('keeps pages built from blocks that are all named like chrome (page builders)', () => {
    const block = (i: number): string =>
      `<div class="elementor-widget-wrap"><div class="elementor-widget-container"><p>${prose(2, `part${i}`)}</p></div></div>`;
    const html = `<html><body><header class="site-header"><a href="/">Home</a></header>
      <div class="elementor">${[1, 2, 3, 4].map(block).join('')}</div>
      <div class="widget">Small widget text here</div>
      <footer>Footer text, all rights reserved</footer></body></html>`;
    const out = text(html);
    for (const i of [1, 2, 3, 4]) expect(out).toContain(`about part${i}`);
    expect(out).not.toContain('Footer text');
  });

  it('drops a strip of announcements beside the content, named in the singular or the plural', () => {
    for (const cls of ['site-announcement', 'recent_announcements']) {
      const html = `<html><body><main><h1>Game</h1><p>${prose(5, 'the game')}</p>
        <div class="${cls}"><h2>Recent events</h2><p>Season four is here, with new maps and a patch for the matchmaking queue.</p></div>
        <p>${prose(3, 'its modes')}</p></main></body></html>`;
      const out = text(html);
      expect(out).toContain('Sentence 2 about its modes');
      expect(out).not.toContain('Season four is here');
    }
  });

  it('keeps a landmark that holds the whole page (an unclosed <aside>, a tablist around panels)', () => {
    const aside = `<html><body><aside class="announcement"><a href="/x">Announcement</a>
      <main><p>${prose(4, 'wrapped')}</p><p>${prose(3, 'wrapped')}</p></main></body></html>`;
    expect(text(aside)).toContain('Sentence 3 about wrapped');
    const tabs = `<html><body><div role="tablist"><div role="tabpanel"><p>${prose(4, 'tabbed')}</p></div></div>
      <nav><ul>${links(5, 'nav')}</ul></nav></body></html>`;
    const out = text(tabs);
    expect(out).toContain('Sentence 3 about tabbed');
    expect(out).not.toContain('nav link');
  });

  it('reads streamed chunks parked in hidden divs only when the visible page is empty', () => {
    const chunk = (i: number): string => `<div hidden id="S:${i}"><p>${prose(2, `chunk${i}`)}</p></div>`;
    const streamed = `<html><body><div id="root"><span>Loading</span></div>${[1, 2, 3].map(chunk).join('')}</body></html>`;
    const out = text(streamed);
    expect(out).toContain('about chunk1');
    expect(out).toContain('about chunk3');
    const copy = `<html><body><article><p>${prose(5, 'visible')}</p><p>${prose(3, 'visible')}</p></article>
      <div style="display:none"><p>${prose(5, 'microdata')}</p></div>
      <div style="display:none"><p>${prose(5, 'microdata')}</p></div></body></html>`;
    const out2 = text(copy);
    expect(out2).toContain('about visible');
    expect(out2).not.toContain('microdata');
  });

  it("keeps a testimonials block built of 'comment' parts, drops readers' comments", () => {
    const quotes = [
      'It touches on licensing, governance and community, and I learned a lot about projects I had not heard of.',
      'The quizzes at the end of every chapter affirmed what I learned, and the labs were easy to set up.',
      'Simple and concise information to get into the world of open source, with a clear map of the field.',
      'A great course for beginners: a view from the top of the field, then the details that matter most.',
    ];
    const item = (cls: string, q: string): string =>
      `<article class="${cls}"><div class="${cls}-date">May 2024</div><div class="${cls}-body">${q}</div></article>`;
    const page = (
      block: string,
    ): string => `<html><body><nav><a href="/">Home</a><a href="/c">Courses</a></nav>
      <main><h1>Course</h1><h2>What you will learn</h2><p>${prose(4, 'the course')}</p>
      <h2>Outline</h2><ul><li>Chapter 1. Introduction</li><li>Chapter 2. Licensing</li></ul>${block}</main>
      <footer>Footer text, all rights reserved</footer></body></html>`;
    const cls = 'course-testimonials-comments-comment';
    const testimonials = `<div class="course-testimonials"><div class="course-testimonials-title">Reviews</div>
      <div class="course-testimonials-comments">${quotes.map((q) => item(cls, q)).join('')}</div></div>`;
    const kept = text(page(testimonials));
    for (const q of quotes) expect(kept).toContain(q);
    const comments = `<div class="post-comments"><div class="course-comments">${quotes.map((q) => item('comment', q)).join('')}</div></div>`;
    const dropped = text(page(comments));
    expect(dropped).toContain('Chapter 2. Licensing');
    for (const q of quotes) expect(dropped).not.toContain(q);
  });
});

describe('article furniture', () => {
  it('keeps the headline on top, drops captions, bylines and datelines, keeps the body', () => {
    const html = `<html><body><article>
      <h1>The headline of the story</h1>
      <div class="meta"><p>By Jane Reporter</p><p>November 20, 2019 10:43</p></div>
      <figure><img src="/a.jpg"><figcaption>A caption under the photo (Image: Agency)</figcaption></figure>
      <p>${prose(5, 'body')}</p><p>${prose(4, 'body')}</p><p>${prose(4, 'end')}</p>
      <p class="photo-credit">Photo: Someone, Agency</p>
      </article></body></html>`;
    const out = text(html);
    expect(out).toContain('Sentence 4 about body');
    expect(out).toContain('Sentence 3 about end');
    expect(out.startsWith('The headline of the story\n')).toBe(true);
    for (const junk of ['Jane Reporter', 'November 20', 'caption under', 'Photo: Someone'])
      expect(out).not.toContain(junk);
  });

  it('keeps dates and authors on listings, where they are the content', () => {
    const post = (i: number): string =>
      `<div class="post"><h2><a href="/p/${i}">Post title number ${i}</a></h2><p>By Author ${i}</p><p>March ${i + 1}, 2024</p><p>${prose(1, `teaser${i}`)}</p></div>`;
    const out = text(`<html><body><main>${[0, 1, 2, 3, 4, 5].map(post).join('')}</main></body></html>`);
    expect(out).toContain('By Author 0');
    expect(out).toContain('March 6, 2024');
  });

  it('finds a short article next to long footer prose and a list of other headlines', () => {
    const others = Array.from(
      { length: 12 },
      (_, i) =>
        `<div class="item"><a href="/n/${i}">Other headline number ${i} about something else</a><span>By STAFF</span></div>`,
    ).join('');
    const html = `<html><body><div class="layout"><div class="story"><div class="story-text">${prose(6, 'story')}</div></div>
      <div class="list">${others}</div></div>
      <div class="all-footer-wrap"><div class="copy">${prose(14, 'company')}</div></div></body></html>`;
    const out = text(html);
    expect(out).toContain('Sentence 3 about story');
    expect(out).not.toContain('Other headline');
    expect(out).not.toContain('about company');
  });

  it('takes a div of loose text (no <p>) even inside a link-heavy column layout', () => {
    const html = `<html><body><div class="row"><div class="col-3"><ul>${links(60, 'archive')}</ul></div>
      <div class="col-9">${prose(3, 'loose')}<br>${prose(3, 'loose2')}</div></div></body></html>`;
    const out = text(html);
    expect(out).toContain('about loose2');
    expect(out).not.toContain('archive link');
  });
});

describe('repeated and missing content', () => {
  it('keeps one copy of a block repeated for mobile and desktop', () => {
    const summary = `<div class="summary"><h2>Blue mug</h2><p>${prose(3, 'mug')}</p></div>`;
    const html = `<html><body><main><div class="mobile">${summary}</div><div class="desktop">${summary}</div>
      <p>${prose(2, 'details')}</p></main></body></html>`;
    const out = text(html);
    expect(out.split('Sentence 0 about mug').length - 1).toBe(1);
    expect(out).toContain('about details');
  });

  it('on a page kept whole, keeps one copy of a short spec block rendered twice, and the caption every card repeats', () => {
    const specs =
      '<dl class="specs"><dt>Material</dt><dd>Anodised aluminium, 6061 grade, brushed finish</dd><dt>Weight</dt><dd>60 grams with the strap and the clip</dd><dt>Holds</dt><dd>Up to twelve cards</dd></dl>';
    const card = (n: number): string =>
      `<li class="cam"><h3>Camera ${n} at the north gate</h3><p>${prose(2, `camera${n}`)}</p><p>Image courtesy of the park trust.</p></li>`;
    const ld = `<script type="application/ld+json">{"@type":"Product","name":"Trail wallet"}</script>`;
    const html = `<html><head>${ld}</head><body><main><h1>Trail wallet</h1><p>$40.00</p><p>${prose(2, 'wallet')}</p>
      <div class="tab">${specs}</div><div class="accordion">${specs}</div>
      <ul>${card(1)}${card(2)}${card(3)}</ul></main></body></html>`;
    const out = processHtml(html, {
      url: 'https://shop.example.com/products/trail-wallet',
      formats: ['text'],
    });
    expect(out.metadata.pageType).toBe('product');
    expect(out.text.split('Anodised aluminium').length - 1).toBe(1);
    expect(out.text.split('Image courtesy of the park trust.').length - 1).toBe(3);
  });

  it('in an article, keeps a short paragraph that comes back (an interview asks each guest the same)', () => {
    const question =
      'Which dish do you cook for yourself on a quiet evening at home, and is there one dish or one ingredient you would never order?';
    const guest = (n: number): string =>
      `<h2>Guest ${n}</h2><p><b>${question}</b></p><p>${prose(4, `guest${n}`)}</p>`;
    const out = text(
      `<html><body><article><h1>Five chefs at home</h1>${[1, 2, 3, 4, 5].map(guest).join('')}</article></body></html>`,
    );
    expect(out).toContain('about guest5');
    expect(out.split(question).length - 1).toBe(5);
  });

  it('falls back to the JSON-LD body of a page that renders nothing, never to its description', () => {
    const ld = JSON.stringify({
      '@type': 'DiscussionForumPosting',
      text: 'First post of the thread, asking a question.',
      comment: [{ '@type': 'Comment', text: 'A reply that answers it.' }],
    });
    const html = `<html><head><meta name="description" content="Teaser text"><script type="application/ld+json">${ld}</script></head>
      <body><div id="app"></div></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text', 'markdown'] });
    expect(out.text).toBe('First post of the thread, asking a question.\n\nA reply that answers it.');
    expect(out.markdown).toContain('A reply that answers it.');
    const bare = `<html><head><meta name="description" content="Teaser text"></head><body><div id="app"></div></body></html>`;
    expect(text(bare)).toBe('');
  });
});
