// Builds the BenchContext a case's setup receives.
import type { Backend, BenchChannel, BenchContext, HttpAnswer } from './types.ts';
import { BenchError } from './process.ts';

export function createContext(baseUrl: string, backend: Backend, channel: BenchChannel): BenchContext {
  const basicAuth = `Basic ${Buffer.from(`${channel.clientId}:${channel.clientSecret}`).toString('base64')}`;
  const http = async (
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<HttpAnswer> => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: options.headers ?? {},
      ...(options.body !== undefined ? { body: options.body } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body };
  };
  return {
    baseUrl,
    backend,
    channel,
    basicAuth,
    http,
    async accessToken() {
      const answer = await http('POST', '/v1/oauth/token', {
        headers: { authorization: basicAuth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      const token = (answer.body as { access_token?: unknown } | undefined)?.access_token;
      if (answer.status !== 200 || typeof token !== 'string') {
        throw new BenchError(`POST /v1/oauth/token answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      return token;
    },
  };
}
