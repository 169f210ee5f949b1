import { describe, expect, it } from 'vitest';
import { isValidCpf, maskCpf } from '../../src/links/cpf.ts';
import { isValidCelular, maskCelular } from '../../src/links/celular.ts';

describe('CPF', () => {
  it.each([
    '12345678909',
    '52998224725',
    '11144477735',
    '00000000191',
    '00000000272',
    '00000000353',
    '00000000434',
    '00000000515',
    '00000000604',
  ])('accepts %s', (cpf) => expect(isValidCpf(cpf)).toBe(true));

  it.each([
    ['first check digit wrong', '12345678919'],
    ['second check digit wrong', '12345678908'],
    ['both wrong', '12345678900'],
    ['10 digits', '1234567890'],
    ['12 digits', '123456789090'],
    ['formatted', '123.456.789-09'],
    ['letters', '1234567890a'],
    ['spaces', ' 12345678909'],
    ['empty', ''],
    ['full-width digits', '１２３４５６７８９０９'],
  ])('refuses %s', (_name, cpf) => expect(isValidCpf(cpf)).toBe(false));

  it('refuses the eleven repeated-digit numbers even though their check digits work out', () => {
    for (let d = 0; d <= 9; d++) expect(isValidCpf(String(d).repeat(11))).toBe(false);
  });

  it('computes a check digit of 0 when the remainder is 10 or 11', () => {
    // 11144477735: first digit remainder path; 00000000191 ends in 1 after a 0-rest.
    expect(isValidCpf('11144477735')).toBe(true);
    expect(isValidCpf('00000001805')).toBe(false);
  });

  it('refuses non-strings', () => {
    for (const value of [12345678909, null, undefined, {}, ['12345678909']]) expect(isValidCpf(value)).toBe(false);
  });

  it('masks all but the middle six digits', () => expect(maskCpf('12345678909')).toBe('***.456.789-**'));
});

describe('celular', () => {
  it.each(['11987654321', '21912345678', '99999999999', '61900000000'])('accepts %s', (c) =>
    expect(isValidCelular(c)).toBe(true),
  );
  it.each([
    ['DDD 10', '10987654321'],
    ['DDD 20', '20987654321'],
    ['DDD 23', '23987654321'],
    ['DDD 52', '52987654321'],
    ['DDD 72', '72987654321'],
    ['landline (no 9)', '1133334444'],
    ['third digit not 9', '11887654321'],
    ['10 digits', '1198765432'],
    ['12 digits', '119876543210'],
    ['with +55', '+5511987654321'],
    ['formatted', '(11) 98765-4321'],
  ])('refuses %s', (_name, c) => expect(isValidCelular(c)).toBe(false));
  it('masks all but the last four digits', () => expect(maskCelular('11987654321')).toBe('(11) 9****-4321'));
});
