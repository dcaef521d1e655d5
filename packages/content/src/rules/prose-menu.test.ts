import { processHtml } from '../index';

// A landing page whose questions and answers sit in a tab component its builder named
// "faq-tabs-menu" (answers inside the component), beside a real site menu of links.
const answer = (q: string, a: string): string => `<div class="faq-tab"><h3>${q}</h3><p>${a}</p></div>`;

const page = `<html><head><title>Identity protection</title></head><body>
  <div class="site-menu"><ul><li><a href="/plans">Plans</a></li><li><a href="/pricing">Pricing</a></li>
    <li><a href="/help">Help centre</a></li><li><a href="/login">Log in</a></li></ul></div>
  <main>
    <h1>Identity protection</h1>
    ${[1, 2, 3, 4, 5, 6, 7, 8]
      .map(
        (i) =>
          `<section><h2>Part ${i} of the service</h2><p>We watch your accounts, alert you when your details show up where they should not and help you recover what was taken, step by step.</p></section>`,
      )
      .join('')}
    <div class="faq-tabs-menu">
      ${answer('What is monitored?', 'Your email addresses, phone numbers and card numbers are checked every day against known leaks and sale lists.')}
      ${answer('How fast are alerts?', 'Alerts reach you by email and text within minutes of a match, with the steps to take for each kind of leak.')}
      ${answer('Can I cancel?', 'You can cancel at any time from your account page, and the current month is refunded in full without questions.')}
      ${answer('Who helps me recover?', 'A recovery specialist takes your case from the first call until your accounts and credit file are restored.')}
    </div>
  </main></body></html>`;

describe('blocks named menu that hold prose', () => {
  const out = processHtml(page, { url: 'https://www.example.com/identity-protection', formats: ['text'] });

  it('are kept as content', () => {
    expect(out.text).toContain('checked every day against known leaks');
    expect(out.text).toContain('A recovery specialist takes your case');
  });

  it('while a menu of links still goes', () => {
    expect(out.text).not.toContain('Help centre');
  });
});

describe('an element marked role=tablist that holds the tab panels and their prose', () => {
  const tabs = `<div role="tablist" class="tabs">
      <button role="tab" aria-selected="true">Overview</button><button role="tab">Care</button>
      <div role="tabpanel"><p>The tumbler keeps a morning coffee hot until lunch and iced tea cold through the afternoon, in any cupholder.</p></div>
      <div role="tabpanel"><p>Rinse it by hand or put it in the dishwasher; the lid comes apart in two pieces for cleaning.</p></div>
    </div>`;
  const body = (
    strip: string,
  ): string => `<html><head><title>Tumbler</title></head><body><main><h1>Tumbler</h1>
    ${[1, 2, 3, 4, 5, 6]
      .map(
        (i) =>
          `<p>Point ${i} about the tumbler: double-walled steel, a sliding lid, a handle that folds flat and a finish that will not sweat.</p>`,
      )
      .join('')}${strip}</main></body></html>`;

  it('is kept as content', () => {
    const out = processHtml(body(tabs), { url: 'https://www.example.com/tumbler', formats: ['text'] });
    expect(out.text).toContain('keeps a morning coffee hot until lunch');
    expect(out.text).toContain('the lid comes apart in two pieces');
  });

  it('while a strip of tab links still goes', () => {
    const strip = `<div role="tablist"><a href="#overview" role="tab">Overview of the tumbler and its lid</a><a href="#care" role="tab">Care and cleaning instructions</a></div>`;
    const out = processHtml(body(strip), { url: 'https://www.example.com/tumbler', formats: ['text'] });
    expect(out.text).not.toContain('Care and cleaning instructions');
  });
});
