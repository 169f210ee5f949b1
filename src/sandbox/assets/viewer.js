// Inbox viewer: follows the inbox's event stream (…/eventos/fluxo, Server-Sent Events)
// and, on each event, reads this page again from the server and merges its list in
// place, without reloading. The server renders every event (a bounded preview of each
// body), so the page looks the same whether an event came live or with the page.
// Without the stream (no EventSource, or while it reconnects) it polls every 2 seconds;
// with it, a slow poll still catches what the stream does not carry (events cleared,
// the answered status changed elsewhere). Received events never change, so only new
// ones are added and deleted ones removed: what the reader opened, selected or focused
// stays. Only the newest page is live; an older page is read as it was served.
(() => {
  const POLL_MS = 2000;
  const LIVE_POLL_MS = 15000;
  const token = document.body.dataset.token;
  const list = document.getElementById('eventos');
  const line = document.getElementById('atualizacao');
  const notice = document.getElementById('aviso');
  const select = document.getElementById('responderStatus');
  const pages = document.getElementById('paginas');
  const live = line.hasAttribute('data-ao-vivo');
  const base = `/v1/sandbox/receptor/${encodeURIComponent(token)}`;
  const self = `/sandbox/receptor/${encodeURIComponent(token)}`;
  const clock = new Intl.DateTimeFormat('pt-BR', { timeStyle: 'medium', timeZone: 'America/Sao_Paulo' });
  let timer;
  let stopped = false;
  let choosing = false;
  let pushed = false;
  // One read at a time; events that arrive meanwhile make it read once more after.
  let reading = false;
  let again = false;

  const say = (text) => {
    notice.textContent = text;
  };

  /** Merges the server's newest-first list into the page; returns how many are new. */
  function merge(fresh) {
    const items = [...fresh.children];
    const wanted = new Set(items.filter((li) => li.classList.contains('evento')).map((li) => li.dataset.id));
    const shown = new Map();
    for (const li of [...list.children]) {
      if (li.classList.contains('evento') && wanted.has(li.dataset.id)) shown.set(li.dataset.id, li);
      else li.remove();
    }
    let added = 0;
    let cursor = list.firstElementChild;
    for (const item of items) {
      const existing = item.classList.contains('evento') ? shown.get(item.dataset.id) : undefined;
      if (existing) {
        cursor = existing.nextElementSibling;
        continue;
      }
      const node = document.importNode(item, true);
      if (node.classList.contains('evento')) {
        node.classList.add('novo');
        added += 1;
      }
      list.insertBefore(node, cursor);
    }
    return added;
  }

  async function refresh() {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    clearTimeout(timer);
    let wait = pushed ? LIVE_POLL_MS : POLL_MS;
    try {
      const response = await fetch(self, { cache: 'no-store', headers: { accept: 'text/html' } });
      if (response.status === 404) {
        stopped = true;
        line.textContent = 'Este receptor não existe mais.';
        return;
      }
      if (response.status === 429 || response.status === 503) {
        wait = Math.max(POLL_MS, Number(response.headers.get('retry-after') || 0) * 1000);
        line.textContent = `${response.status === 429 ? 'Muitas requisições' : 'Serviço ocupado'}; tentando de novo em ${Math.round(wait / 1000)} segundos.`;
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      // Parsed, never run: a document from DOMParser executes no script and loads nothing.
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
      const added = merge(fresh.getElementById('eventos'));
      pages.replaceChildren(...[...fresh.getElementById('paginas').childNodes].map((n) => document.importNode(n, true)));
      if (added > 0) say(added === 1 ? '1 evento novo.' : `${added} eventos novos.`);
      // A choice not applied yet is left alone; otherwise show the status in force.
      const inForce = fresh.querySelector('#responderStatus option[selected]');
      if (!choosing && inForce) select.value = inForce.value;
      line.textContent = pushed
        ? `Atualiza sozinho assim que um evento chega. Atualizado às ${clock.format(new Date())} (horário de Brasília).`
        : `Atualiza sozinho a cada 2 segundos. Atualizado às ${clock.format(new Date())} (horário de Brasília).`;
    } catch {
      line.textContent = 'Sem conexão com o serviço; tentando de novo…';
    } finally {
      reading = false;
      clearTimeout(timer);
      if (again && !stopped) {
        again = false;
        void refresh();
      } else if (!stopped && document.visibilityState !== 'hidden') timer = setTimeout(refresh, wait);
    }
  }

  async function send(url, init, done) {
    try {
      const response = await fetch(url, init);
      if (response.status === 429 || response.status === 503)
        say(`Muitas requisições: aguarde ${response.headers.get('retry-after') || 'alguns'} segundos.`);
      else if (!response.ok) say('Não foi possível aplicar. Tente de novo.');
      else {
        if (live) await refresh();
        else window.location.assign(self);
        say(done);
      }
    } catch {
      say('Sem conexão com o serviço. Tente de novo.');
    }
  }

  document.getElementById('form-modo').addEventListener('submit', (e) => {
    e.preventDefault();
    const status = select.value;
    void send(
      `${base}/modo`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ responderStatus: Number(status) }),
      },
      `Agora respondendo com ${status}.`,
    ).finally(() => {
      // From here the page shows the status in force again (this one, or the old one if it failed).
      choosing = false;
    });
  });
  select.addEventListener('change', () => {
    choosing = true;
  });
  document.getElementById('form-limpar').addEventListener('submit', (e) => {
    e.preventDefault();
    void send(`${base}/eventos`, { method: 'DELETE' }, 'Eventos apagados.');
  });

  if (!live) return;

  // A hidden tab does not poll (and does not spend the token's request budget).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !stopped) void refresh();
    else clearTimeout(timer);
  });

  // The server-rendered list is current; the first poll only adds what came since.
  line.textContent = 'Atualiza sozinho a cada 2 segundos (horário de Brasília).';
  timer = setTimeout(refresh, POLL_MS);

  // Pushed events: each one (and each (re)connection, which may follow a gap) reads the list.
  if (typeof EventSource === 'function') {
    const source = new EventSource(`${base}/eventos/fluxo`);
    source.addEventListener('pronto', () => {
      pushed = true;
      void refresh();
    });
    source.addEventListener('evento', () => {
      if (document.visibilityState !== 'hidden') void refresh();
    });
    source.addEventListener('error', () => {
      pushed = false;
      if (stopped) source.close();
    });
  }
})();
