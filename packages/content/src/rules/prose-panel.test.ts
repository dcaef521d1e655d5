import { processHtml } from '../index';

const URL = 'https://www.example.com/';

// A service landing page whose feature list is an accordion: only the first panel is open, the
// others are hidden by aria-hidden until a click. A closed menu of links beside it stays closed.
const panel = (i: number, open: boolean, text: string): string => `<div class="accordion-item">
  <button aria-expanded="${open}">Feature ${i}</button>
  <div class="accordion-panel" ${open ? '' : 'aria-hidden="true"'}><p>${text}</p></div></div>`;

const section = (i: number): string => `<section><h2>Section ${i} of the offer</h2>
  <p>Our consultants work beside your team for the length of the project and hand over every document they write.</p></section>`;

const page = `<html><head><title>Consulting for growing teams</title></head><body>
  <main>
    <h1>Consulting for growing teams</h1>
    ${[1, 2, 3, 4, 5, 6].map(section).join('')}
    <div class="accordion">
      ${panel(1, true, 'Workshops with your leads to set the goals of the quarter and the measures that show progress.')}
      ${panel(2, false, 'Weekly reviews of the roadmap, with a written summary of the decisions taken and the open questions.')}
      ${panel(3, false, 'A handover pack at the end: processes, templates and the training your new hires will need.')}
    </div>
    <div class="collapse" aria-hidden="true"><ul><li><a href="/a">Strategy</a></li><li><a href="/b">Operations</a></li>
      <li><a href="/c">Finance</a></li><li><a href="/d">People</a></li></ul></div>
  </main></body></html>`;

describe('closed accordion panels of service pages', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('are shown when they hold prose', () => {
    expect(out.metadata.pageType).toBe('service');
    expect(out.text).toContain('Workshops with your leads');
    expect(out.text).toContain('Weekly reviews of the roadmap');
    expect(out.text).toContain('A handover pack at the end');
  });

  it('stay closed when they hold a list of links', () => {
    expect(out.text).not.toContain('Operations');
  });
});

// An article whose questions and answers close the story as an accordion: the answers are hidden
// by aria-hidden until a click, but a reader opens them and they are the article's text.
const para = (i: number): string =>
  `<p>Paragraph ${i} of the story: the council voted on Tuesday to extend the opening hours of the city's libraries, after a year in which visits rose by a third and the reading rooms were full most evenings.</p>`;

const articlePage = `<html><head><title>Libraries open longer</title>
  <meta property="og:type" content="article"></head><body>
  <article>
    <h1>Libraries open longer</h1>
    ${[1, 2, 3, 4, 5, 6].map(para).join('')}
    <h2>Questions readers asked</h2>
    <div class="faq">
      ${panel(1, false, 'The new hours start on the first Monday of next month and apply to every branch in the city.')}
      ${panel(2, false, 'The longer evenings are paid for by the culture budget, which the council raised by two percent.')}
    </div>
  </article></body></html>`;

describe('closed accordion panels of articles', () => {
  const out = processHtml(articlePage, {
    url: 'https://www.example.com/news/2024/05/14/libraries-open-longer',
    formats: ['text'],
  });

  it('are shown when they hold prose', () => {
    expect(out.metadata.pageType).toBe('article');
    expect(out.text).toContain('The new hours start on the first Monday');
    expect(out.text).toContain('paid for by the culture budget');
  });
});

// The WAI-ARIA accordion pattern: each button names the panel it opens (aria-controls) and the
// closed panels carry the hidden attribute, which the script toggles.
const disclosure = (i: number, text: string): string => `<h3><button aria-expanded="false"
  aria-controls="answer-${i}" id="question-${i}">Question ${i}</button></h3>
  <div id="answer-${i}" aria-labelledby="question-${i}" hidden><p>${text}</p></div>`;

const disclosurePage = `<html><head><title>Consulting for growing teams</title></head><body>
  <main>
    <h1>Consulting for growing teams</h1>
    ${[1, 2, 3, 4, 5, 6].map(section).join('')}
    <h2>Frequently asked questions</h2>
    ${disclosure(1, 'A first call is free: we listen to what your team needs and tell you whether we can help.')}
    ${disclosure(2, 'Most projects last a quarter, with a review every month and a written report at the end.')}
    <div hidden><p>Internal note kept by the template and never shown to any visitor of the page at all.</p></div>
  </main></body></html>`;

describe('closed disclosure panels of service pages', () => {
  const out = processHtml(disclosurePage, { url: URL, formats: ['text'] });

  it('are shown when a button controls them, even under the hidden attribute', () => {
    expect(out.metadata.pageType).toBe('service');
    expect(out.text).toContain('A first call is free');
    expect(out.text).toContain('Most projects last a quarter');
  });

  it('while a hidden block no control opens stays hidden', () => {
    expect(out.text).not.toContain('Internal note');
  });
});

// A guide that folds its advice as lists: the closed panel holds list items of words, not
// paragraphs. A closed list of links beside it stays closed.
const listPanel = (i: number, items: string[]): string => `<div class="accordion-item">
  <button aria-expanded="false">Tip ${i}</button>
  <div class="accordion-panel" aria-hidden="true"><ul>${items.map((t) => `<li>${t}</li>`).join('')}</ul></div></div>`;

const listPage = `<html><head><title>Consulting for growing teams</title></head><body>
  <main>
    <h1>Consulting for growing teams</h1>
    ${[1, 2, 3, 4, 5, 6].map(section).join('')}
    <div class="accordion">
      ${listPanel(1, ['Kick-off workshops: a day with your leads to agree on the goals and how to measure them.', 'Monthly reviews: a written summary of what moved, what did not and what comes next.'])}
      ${listPanel(2, ['<a href="/services/strategy-and-planning-for-growing-companies">Strategy and planning for growing companies of every size</a>'])}
    </div>
  </main></body></html>`;

describe('closed accordion panels holding lists', () => {
  const out = processHtml(listPage, { url: URL, formats: ['text'] });

  it('are shown when the list items are words', () => {
    expect(out.metadata.pageType).toBe('service');
    expect(out.text).toContain('Kick-off workshops: a day with your leads');
    expect(out.text).toContain('Monthly reviews: a written summary');
  });

  it('stay closed when the items are links', () => {
    expect(out.text).not.toContain('Strategy and planning for growing companies');
  });
});
