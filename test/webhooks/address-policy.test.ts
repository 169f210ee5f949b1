import { describe, expect, it } from 'vitest';
import { forbiddenAddressReason } from '../../src/webhooks/address-policy.ts';

const refused = (ip: string) => forbiddenAddressReason(ip);

describe('forbiddenAddressReason: IPv4', () => {
  it.each([
    ['0.0.0.0', 'endereço não especificado'],
    ['0.1.2.3', 'rede reservada'],
    ['0.255.255.255', 'rede reservada'],
    ['10.0.0.0', 'rede privada'],
    ['10.0.0.5', 'rede privada'],
    ['10.255.255.255', 'rede privada'],
    ['100.64.0.0', 'rede CGNAT'],
    ['100.127.255.255', 'rede CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'rede privada'],
    ['172.31.255.255', 'rede privada'],
    ['192.0.0.8', 'rede reservada'],
    ['192.0.2.1', 'rede de documentação'],
    ['192.88.99.1', 'rede reservada'],
    ['192.168.0.1', 'rede privada'],
    ['192.168.255.255', 'rede privada'],
    ['198.18.0.1', 'rede de benchmark'],
    ['198.19.255.255', 'rede de benchmark'],
    ['198.51.100.7', 'rede de documentação'],
    ['203.0.113.10', 'rede de documentação'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'rede reservada'],
    ['255.255.255.254', 'rede reservada'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s (%s)', (ip, reason) => {
    expect(refused(ip)).toBe(reason);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.0.3.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '203.0.114.1',
    '223.255.255.255',
  ])('allows public %s', (ip) => {
    expect(refused(ip)).toBeUndefined();
  });
});

describe('forbiddenAddressReason: IPv6', () => {
  it.each([
    ['::', 'endereço não especificado'],
    ['0:0:0:0:0:0:0:0', 'endereço não especificado'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local (obsoleto)'],
    ['feff::1', 'site-local (obsoleto)'],
    ['fc00::1', 'rede privada (ULA)'],
    ['fd12:3456:789a::1', 'rede privada (ULA)'],
    ['ff02::1', 'multicast'],
    ['ff0e::101', 'multicast'],
    ['100::1', 'rede de descarte'],
    ['2001:db8::1', 'rede de documentação'],
    ['2001:0db8:ffff:ffff:ffff:ffff:ffff:ffff', 'rede de documentação'],
    ['3fff::1', 'rede de documentação'],
    ['2001:2::1', 'rede reservada'],
    ['2001:10::1', 'rede reservada'],
    ['4000::1', 'rede reservada'],
    ['5f00::1', 'rede reservada'],
    ['::ffff:0:0:1', 'rede reservada'],
  ])('refuses %s (%s)', (ip, reason) => {
    expect(refused(ip)).toBe(reason);
  });

  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::1', '2001:200::1', '3ffe::1'])(
    'allows public %s',
    (ip) => {
      expect(refused(ip)).toBeUndefined();
    },
  );
});

describe('forbiddenAddressReason: IPv4 inside IPv6', () => {
  it.each([
    ['::ffff:127.0.0.1', 'loopback (IPv4 mapeado)'],
    ['::ffff:7f00:1', 'loopback (IPv4 mapeado)'],
    ['0:0:0:0:0:ffff:10.0.0.5', 'rede privada (IPv4 mapeado)'],
    ['::FFFF:A9FE:A9FE', 'link-local (IPv4 mapeado)'],
    ['::ffff:100.64.0.1', 'rede CGNAT (IPv4 mapeado)'],
    ['::ffff:0.0.0.0', 'endereço não especificado (IPv4 mapeado)'],
  ])('IPv4-mapped %s', (ip, reason) => {
    expect(refused(ip)).toBe(reason);
  });

  it('allows an IPv4-mapped public address, as a dual-stack socket reports it', () => {
    expect(refused('::ffff:8.8.8.8')).toBeUndefined();
  });

  it.each([
    ['::127.0.0.1', 'loopback (IPv4 compatível)'],
    ['::10.0.0.5', 'rede privada (IPv4 compatível)'],
    ['::a9fe:a9fe', 'link-local (IPv4 compatível)'],
    ['::8.8.8.8', 'IPv4 compatível (obsoleto)'],
    ['::2', 'rede reservada (IPv4 compatível)'],
  ])('IPv4-compatible %s', (ip, reason) => {
    expect(refused(ip)).toBe(reason);
  });

  it.each([
    ['64:ff9b::127.0.0.1', 'loopback (NAT64)'],
    ['64:ff9b::a00:5', 'rede privada (NAT64)'],
    ['64:ff9b::169.254.169.254', 'link-local (NAT64)'],
    ['64:ff9b:1::1', 'NAT64 de uso local'],
    ['64:ff9b:1:ffff::8.8.8.8', 'NAT64 de uso local'],
  ])('NAT64 %s', (ip, reason) => {
    expect(refused(ip)).toBe(reason);
  });

  it('allows the well-known NAT64 form of a public address', () => {
    expect(refused('64:ff9b::8.8.8.8')).toBeUndefined();
  });

  it.each([
    ['2002:7f00:1::', 'loopback (6to4)'],
    ['2002:a00:5::1', 'rede privada (6to4)'],
    ['2002:c0a8:101:1::1', 'rede privada (6to4)'],
    ['2002:a9fe:a9fe::', 'link-local (6to4)'],
  ])('6to4 %s', (ip, reason) => {
    expect(refused(ip)).toBe(reason);
  });

  it('allows 6to4 of a public address', () => {
    expect(refused('2002:808:808::1')).toBeUndefined();
  });

  it.each(['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'])(
    'refuses Teredo %s outright',
    (ip) => {
      expect(refused(ip)).toBe('Teredo');
    },
  );
});

describe('forbiddenAddressReason: not an address', () => {
  it.each(['', 'localhost', 'example.com', '010.0.0.1', '0x7f.0.0.1', '2130706433', '1::2::3', '[::1]', '1.2.3'])(
    'refuses %j',
    (text) => {
      expect(refused(text)).toBe('endereço inválido');
    },
  );
});
