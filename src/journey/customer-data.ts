// Validation of the data step (docs/rules.md §7): each field gets a pt-BR message that
// the page shows next to it.
import type { CustomerData } from '../bank/bank-gateway.ts';
import { isValidCpf } from '../links/cpf.ts';
import { isValidCelular } from '../links/celular.ts';
import { isCleanText } from '../text/unicode.ts';

export type FieldErrors = Partial<Record<keyof CustomerData, string>>;

const NAME = /^[\p{L}][\p{L}'’.-]*(?: [\p{L}][\p{L}'’.-]*)+$/u;
const EMAIL = /^[^\s@]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function validateCustomerData(input: Record<string, unknown>, now: Date): { data?: CustomerData; errors: FieldErrors } {
  const text = (key: string) => (typeof input[key] === 'string' ? (input[key] as string).trim().replace(/\s+/g, ' ') : '');
  const errors: FieldErrors = {};

  const nome = text('nome');
  if (nome === '') errors.nome = 'Informe seu nome completo.';
  else if (nome.length > 120 || !NAME.test(nome)) errors.nome = 'Informe nome e sobrenome, somente letras.';

  const dataNascimento = parseBirthDate(text('dataNascimento'));
  if (text('dataNascimento') === '') errors.dataNascimento = 'Informe sua data de nascimento.';
  else if (!dataNascimento) errors.dataNascimento = 'Data inválida: use dia/mês/ano, por exemplo 31/12/1990.';
  else {
    const age = ageOn(dataNascimento, now);
    if (age < 18) errors.dataNascimento = 'É preciso ter 18 anos ou mais para contratar.';
    else if (age > 100) errors.dataNascimento = 'Confira a data de nascimento.';
  }

  const email = text('email').toLowerCase();
  if (email === '') errors.email = 'Informe seu e-mail.';
  else if (email.length > 254 || !EMAIL.test(email) || !isCleanText(email))
    errors.email = 'E-mail inválido: confira o endereço, por exemplo nome@exemplo.com.';

  const chavePix = normalizePixKey(text('chavePix'));
  if (text('chavePix') === '') errors.chavePix = 'Informe a chave Pix para receber o valor.';
  else if (!chavePix) errors.chavePix = 'Chave Pix inválida: use CPF, CNPJ, e-mail, celular com DDD ou chave aleatória.';

  if (Object.keys(errors).length > 0) return { errors };
  return { data: { nome, dataNascimento: dataNascimento!, email, chavePix: chavePix! }, errors };
}

/** Accepts the date input's YYYY-MM-DD and the typed DD/MM/AAAA; returns YYYY-MM-DD. */
function parseBirthDate(value: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : br ? [br[3], br[2], br[1]] : [];
  if (!y || !m || !d) return undefined;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d))
    return undefined;
  return `${y}-${m}-${d}`;
}

function ageOn(isoDate: string, now: Date): number {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age -= 1;
  return age;
}

function normalizePixKey(value: string): string | undefined {
  if (value === '') return undefined;
  if (UUID.test(value)) return value.toLowerCase();
  // An e-mail key's local part is free text: refused characters (docs/rules.md §8) as in `email`.
  if (value.includes('@')) {
    return isCleanText(value) && EMAIL.test(value.toLowerCase()) && value.length <= 77 ? value.toLowerCase() : undefined;
  }
  const digits = value.replace(/[\s().\-/+]/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  if (digits.length === 11 && isValidCpf(digits)) return digits;
  if (digits.length === 14 && isValidCnpj(digits)) return digits;
  const phone = digits.length === 13 && digits.startsWith('55') ? digits.slice(2) : digits;
  if (isValidCelular(phone)) return `+55${phone}`;
  return undefined;
}

function isValidCnpj(cnpj: string): boolean {
  if (/^(\d)\1{13}$/.test(cnpj)) return false;
  const digits = [...cnpj].map(Number);
  const check = (length: number) => {
    const weights = length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((acc, w, i) => acc + w * digits[i]!, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check(12) === digits[12] && check(13) === digits[13];
}
