// Drives the hosted journey over HTTP (no browser), as a JavaScript-off client would:
// form posts answered by 303 redirects, or 422 with the step and its errors.
import type { TestService } from './service.ts';

export class JourneyClient {
  readonly path: string;
  private readonly service: TestService;

  constructor(service: TestService, url: string) {
    this.service = service;
    this.path = new URL(url).pathname;
  }

  async page(): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
    const r = await this.service.inject({ method: 'GET', url: this.path });
    return { status: r.statusCode, body: r.body, headers: r.headers };
  }

  async post(action: string, fields: Record<string, string> = {}) {
    const r = await this.service.inject({
      method: 'POST',
      url: `${this.path}/${action}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    return { status: r.statusCode, body: r.body, location: r.headers.location as string | undefined };
  }

  /** From the first open to the review step, with valid answers. */
  async upToReview(options: { offer?: string } = {}): Promise<void> {
    await this.page();
    await this.expectDone(this.post('comecar'));
    await this.expectDone(this.post('celular', { celular: '(11) 98765-4321' }));
    await this.expectDone(this.post('codigo', { codigo: '123456' }));
    await this.expectDone(this.post('consulta', { autorizo: 'sim' }));
    await this.expectDone(this.post('oferta', { oferta: options.offer ?? 'oferta-2' }));
    await this.expectDone(
      this.post('dados', {
        nome: 'Maria da Silva',
        dataNascimento: '1990-05-10',
        email: 'maria@exemplo.com',
        chavePix: 'maria@exemplo.com',
      }),
    );
  }

  private async expectDone(p: Promise<{ status: number; body: string }>): Promise<void> {
    const r = await p;
    if (r.status !== 303) throw new Error(`expected 303, got ${r.status}: ${r.body.slice(0, 500)}`);
  }
}

/** The h1 of a page, to tell steps apart. */
export const heading = (body: string): string => /<h1>([\s\S]*?)<\/h1>/.exec(body)?.[1]?.trim() ?? '';
