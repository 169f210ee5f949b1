// Inbox viewer: follows the inbox's event stream (…/eventos/fluxo, Server-Sent Events)
// and, on each event, reads the token-protected events endpoint and updates the list in
// place, without reloading. Without the stream (no EventSource, or while it reconnects)
// it polls every 2 seconds; with it, a slow poll still catches what the stream does not
// carry (events cleared, the answered status changed elsewhere). Received events never change, so only new ones are
// added and deleted ones removed: what the reader opened, selected or focused stays.
// Everything untrusted goes in through textContent, never HTML.
(() => {
  const POLL_MS = 2000;
  const LIVE_POLL_MS = 15000;
  const EMPTY_TEXT = 'Nenhum evento recebido ainda. Envie um teste com POST /v1/webhooks/teste.';
  const token = document.body.dataset.token;
  const list = document.getElementById('eventos');
  const line = document.getElementById('atualizacao');
  const notice = document.getElementById('aviso');
  const select = document.getElementById('responderStatus');
  const base = `/v1/sandbox/receptor/${encodeURIComponent(token)}`;
  const zone = { timeZone: 'America/Sao_Paulo' };
  const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium', ...zone });
  const clock = new Intl.DateTimeFormat('pt-BR', { timeStyle: 'medium', ...zone });
  let timer;
  let stopped = false;
  // Answers are rendered only when newer than the last one rendered (a poll and a
  // control's refresh can overlap).
  let asked = 0;
  let rendered = 0;
  let choosing = false;
  let live = false;

  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  function badge(event) {
    if (event.assinaturaValida === true) return el('span', 'selo valido', 'Assinatura válida');
    if (event.assinaturaValida === false) return el('span', 'selo invalido', 'Assinatura inválida');
    return el('span', 'selo nao-verificado', `Não verificada: ${event.motivo || 'motivo desconhecido'}`);
  }

  function details(summary, text, remark) {
    const d = el('details');
    d.append(el('summary', null, summary));
    if (remark) d.append(el('p', 'aviso-corpo', remark));
    d.append(el('pre', null, text));
    return d;
  }

  // The page's rule (src/sandbox/views/viewer.ts, bodyText): formatted JSON unless
  // it would pass four times the compact text; then compact, with a note.
  const COMPACT_NOTICE = 'Formatação omitida: o corpo formatado ficaria grande demais; mostrado em JSON compacto.';
  function pretty(value, maxChars) {
    const out = [];
    let size = 0;
    const put = (text) => {
      size += text.length;
      out.push(text);
      return size <= maxChars;
    };
    const walk = (node, indent) => {
      if (node === null || typeof node !== 'object') return put(JSON.stringify(node));
      const inner = indent + '  ';
      const entries = Array.isArray(node) ? node.map((item) => [undefined, item]) : Object.entries(node);
      if (entries.length === 0) return put(Array.isArray(node) ? '[]' : '{}');
      if (!put(Array.isArray(node) ? '[' : '{')) return false;
      for (let i = 0; i < entries.length; i++) {
        const [key, item] = entries[i];
        if (!put(`${i === 0 ? '' : ','}\n${inner}${key === undefined ? '' : `${JSON.stringify(key)}: `}`)) return false;
        if (!walk(item, inner)) return false;
      }
      return put(`\n${indent}${Array.isArray(node) ? ']' : '}'}`);
    };
    return walk(value, '') ? out.join('') : undefined;
  }
  function bodyText(event) {
    if (typeof event.corpo === 'string') return { text: event.corpo, notice: event.corpoAviso };
    const compact = JSON.stringify(event.corpo);
    const text = pretty(event.corpo, 4 * compact.length);
    return text === undefined ? { text: compact, notice: COMPACT_NOTICE } : { text };
  }

  function item(event) {
    const li = el('li', 'evento novo');
    li.dataset.id = String(event.id);
    const top = el('div', 'linha');
    top.append(el('span', 'tipo', event.tipo || '(sem tipo)'), badge(event));
    const meta = el('div', 'meta');
    const when = el('time', null, dateTime.format(new Date(event.recebidoEm)));
    when.setAttribute('datetime', event.recebidoEm);
    const ok = event.respondeuStatus >= 200 && event.respondeuStatus < 300;
    meta.append(
      when,
      el('span', null, `Tentativa ${event.tentativa || '–'}`),
      el('span', ok ? 'resposta' : 'resposta falha', `Respondeu ${event.respondeuStatus}`),
    );
    if (event.eventoId) meta.append(el('span', 'id', `ID ${event.eventoId}`));
    const body = bodyText(event);
    const headers = Object.entries(event.headers)
      .map(([k, v]) => `${k}: ${v}\n`)
      .join('');
    li.append(top, meta, details('Corpo', body.text === '' ? '(vazio)' : body.text, body.notice), details('Cabeçalhos', headers));
    return li;
  }

  /** Merges the newest-first list from the API into the page; returns how many are new. */
  function render(eventos) {
    const wanted = new Set(eventos.map((e) => String(e.id)));
    const shown = new Map();
    for (const li of [...list.children]) {
      if (li.classList.contains('evento') && wanted.has(li.dataset.id)) shown.set(li.dataset.id, li);
      else if (!(li.classList.contains('vazio') && eventos.length === 0)) li.remove();
    }
    let added = 0;
    let cursor = list.firstElementChild;
    for (const event of eventos) {
      const existing = shown.get(String(event.id));
      if (existing) {
        cursor = existing.nextElementSibling;
        continue;
      }
      list.insertBefore(item(event), cursor);
      added += 1;
    }
    if (eventos.length === 0 && !list.querySelector('.vazio')) list.append(el('li', 'vazio', EMPTY_TEXT));
    return added;
  }

  const say = (text) => {
    notice.textContent = text;
  };

  async function refresh() {
    clearTimeout(timer);
    const seq = ++asked;
    let wait = live ? LIVE_POLL_MS : POLL_MS;
    try {
      const response = await fetch(`${base}/eventos`, { cache: 'no-store' });
      if (seq < rendered) return;
      rendered = seq;
      if (response.status === 404) {
        stopped = true;
        line.textContent = 'Este receptor não existe mais.';
        return;
      }
      if (response.status === 429) {
        wait = Math.max(POLL_MS, Number(response.headers.get('retry-after') || 0) * 1000);
        line.textContent = `Muitas requisições; tentando de novo em ${Math.round(wait / 1000)} segundos.`;
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      const added = render(data.eventos);
      if (added > 0) say(added === 1 ? '1 evento novo.' : `${added} eventos novos.`);
      // A choice not applied yet is left alone; otherwise show the status in force.
      if (!choosing) select.value = String(data.responderStatus);
      line.textContent = live
        ? `Atualiza sozinho assim que um evento chega. Atualizado às ${clock.format(new Date())} (horário de Brasília).`
        : `Atualiza sozinho a cada 2 segundos. Atualizado às ${clock.format(new Date())} (horário de Brasília).`;
    } catch {
      line.textContent = 'Sem conexão com o serviço; tentando de novo…';
    } finally {
      clearTimeout(timer);
      if (!stopped && document.visibilityState !== 'hidden') timer = setTimeout(refresh, wait);
    }
  }

  async function send(url, init, done) {
    try {
      const response = await fetch(url, init);
      if (response.status === 429)
        say(`Muitas requisições: aguarde ${response.headers.get('retry-after') || 'alguns'} segundos.`);
      else if (!response.ok) say('Não foi possível aplicar. Tente de novo.');
      else {
        await refresh();
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
      live = true;
      void refresh();
    });
    source.addEventListener('evento', () => {
      if (document.visibilityState !== 'hidden') void refresh();
    });
    source.addEventListener('error', () => {
      live = false;
      if (stopped) source.close();
    });
  }
})();
