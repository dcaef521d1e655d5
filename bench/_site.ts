import { startFixtureSite } from '@wcs/testing';

(async () => {
  const site = await startFixtureSite({ pages: 2000 });
  for (const p of ['/article/0', '/article/5', '/article/1999']) {
    const r = await fetch(site.url + p);
    const t = await r.text();
    console.log(p, t.length);
    if (p === '/article/5') console.log(t.slice(0, 3000));
  }
})();
