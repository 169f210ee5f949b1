// How the CLI shows a channel's new credentials: once, on stdout (text or JSON), never
// through the logger (log lines must never carry a secret).
export function printCredentials(
  issued: { canalId: string; nome: string; clientId: string; clientSecret: string; ipsPermitidos: string[] },
  json: boolean,
  title: string,
): void {
  if (json) {
    console.log(JSON.stringify(issued, null, 2));
    return;
  }
  console.log(`${title}
  canalId:       ${issued.canalId}
  name:          ${issued.nome}
  client_id:     ${issued.clientId}
  client_secret: ${issued.clientSecret}
  allowed IPs:   ${issued.ipsPermitidos.length ? issued.ipsPermitidos.join(', ') : 'any'}
The client_secret is shown only now: keep it in a secret store.`);
}
