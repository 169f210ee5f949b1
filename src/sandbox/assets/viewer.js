// Inbox viewer: polls the token-protected events endpoint and re-renders the list
// without reloading. Everything untrusted goes in through textContent, never HTML.
(() => {
  const token = document.body.dataset.token;
  const list = document.getElementById('eventos');
  const status = document.getElementById('atualizacao');
  const select = document.getElementById('responderStatus');
  const base = `/v1/sandbox/receptor/${encodeURIComponent(token)}`;
  const time = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'America/Sao_Paulo' });
  let known = new Set([...list.querySelectorAll('.evento')].map((li) => li.dataset.id));
  let first = true;

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

  function details(summary, text) {
    const d = el('details');
    d.append(el('summary', null, summary), el('pre', null, text));
    return d;
  }

  function item(event, isNew) {
    const li = el('li', isNew ? 'evento novo' : 'evento');
    li.dataset.id = String(event.id);
    const line = el('div', 'linha');
    line.append(el('span', 'tipo', event.tipo || '(sem tipo)'), badge(event));
    const meta = el('div', 'meta');
    const when = el('time', null, time.format(new Date(event.recebidoEm)));
    when.setAttribute('datetime', event.recebidoEm);
    meta.append(when, el('span', null, `Tentativa ${event.tentativa || '–'}`), el('span', null, `Respondeu ${event.respondeuStatus}`));
    if (event.eventoId) meta.append(el('span', 'id', event.eventoId));
    const body = typeof event.corpo === 'string' ? event.corpo : JSON.stringify(event.corpo, null, 2);
    const headers = Object.entries(event.headers).map(([k, v]) => `${k}: ${v}\n`).join('');
    li.append(line, meta, details('Corpo', body), details('Cabeçalhos', headers));
    return li;
  }

  async function refresh() {
    try {
      const response = await fetch(`${base}/eventos`, { cache: 'no-store' });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      const open = new Set([...list.querySelectorAll('details[open]')].map((d) => `${d.closest('.evento').dataset.id}:${d.firstChild.textContent}`));
      const items = data.eventos.map((event) => {
        const li = item(event, !first && !known.has(String(event.id)));
        for (const d of li.querySelectorAll('details')) if (open.has(`${event.id}:${d.firstChild.textContent}`)) d.open = true;
        return li;
      });
      list.replaceChildren(...(items.length ? items : [el('li', 'vazio', 'Nenhum evento recebido ainda. Envie um teste com POST /v1/webhooks/teste.')]));
      known = new Set(data.eventos.map((e) => String(e.id)));
      if (document.activeElement !== select) select.value = String(data.responderStatus);
      status.textContent = `Atualizado às ${new Date().toLocaleTimeString('pt-BR')}.`;
      first = false;
    } catch {
      status.textContent = 'Sem conexão com o serviço; tentando de novo…';
    }
  }

  document.getElementById('form-modo').addEventListener('submit', async (e) => {
    e.preventDefault();
    await fetch(`${base}/modo`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responderStatus: Number(select.value) }) });
    status.textContent = `Agora respondendo com ${select.value}.`;
    await refresh();
  });
  document.getElementById('form-limpar').addEventListener('submit', async (e) => {
    e.preventDefault();
    await fetch(`${base}/eventos`, { method: 'DELETE' });
    await refresh();
  });

  first = false;
  setInterval(refresh, 2000);
})();
