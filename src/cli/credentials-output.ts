// How the CLI shows a channel's new credentials: once, on stdout (text or JSON), never
// through the logger (log lines must never carry a secret).
import type { IssuedCredentials } from '../channels/channels.service.ts';

export function printCredentials(issued: IssuedCredentials, json: boolean, title: string): void {
  console.log(formatCredentials(issued, json, title));
}

export function formatCredentials(issued: IssuedCredentials, json: boolean, title: string): string {
  if (json) return JSON.stringify(issued, null, 2);
  return `${title}
  canalId:       ${issued.canalId}
  name:          ${issued.nome}
  client_id:     ${issued.clientId}
  client_secret: ${issued.clientSecret}
  allowed IPs:   ${issued.ipsPermitidos.length ? issued.ipsPermitidos.join(', ') : 'any'}
The client_secret is shown only now: keep it in a secret store.`;
}

/** Several channels created by one command: a JSON array, or one line each. */
export function formatCredentialsList(issued: IssuedCredentials[], json: boolean): string {
  if (json) return JSON.stringify(issued, null, 2);
  const allowed = issued[0]?.ipsPermitidos ?? [];
  return [
    `${issued.length} channel${issued.length === 1 ? '' : 's'} created (allowed IPs: ${allowed.length ? allowed.join(', ') : 'any'}).`,
    'canalId  client_id  client_secret  name',
    ...issued.map((c) => `${c.canalId}  ${c.clientId}  ${c.clientSecret}  ${c.nome}`),
    'The client_secrets are shown only now: keep them in a secret store.',
  ].join('\n');
}
