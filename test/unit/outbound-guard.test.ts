import { describe, expect, test } from 'vitest';
import { assertPublicUrl, classifyAddress } from '../../src/platform/net/outbound-guard.ts';

describe('classifyAddress', () => {
  test.each([
    ['93.184.215.14', 'public'],
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.100.100.200', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('assertPublicUrl', () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));

  test('accepts https to a public address and returns the addresses to connect to', async () => {
    const ok = await assertPublicUrl('https://hooks.example.com/in', { allowLoopback: false, resolve: resolveTo('93.184.215.14') });
    expect(ok.addresses).toEqual([{ address: '93.184.215.14', family: 4 }]);
  });

  test.each([
    ['http://93.184.215.14/hook', /must be an https:\/\/ URL/],
    ['ftp://93.184.215.14/hook', /must be an https:\/\/ URL/],
    ['not a url', /must be an absolute URL/],
    ['https://user:pw@93.184.215.14/', /credentials/],
    ['https://[::ffff:169.254.169.254]/', /link-local/],
    ['https://0x7f.1/', /loopback/],
  ])('refuses %s', async (url, message) => {
    await expect(assertPublicUrl(url, { allowLoopback: false })).rejects.toThrow(message);
  });

  test('a name is refused if any of its addresses is not public (checked after resolution)', async () => {
    await expect(assertPublicUrl('https://rebind.example/', { allowLoopback: false, resolve: resolveTo('93.184.215.14', '10.0.0.7') })).rejects.toThrow(
      /rebind\.example is 10\.0\.0\.7, a private address/,
    );
  });

  test('allowLoopback admits loopback (also over http) but still refuses private addresses', async () => {
    await expect(assertPublicUrl('http://127.0.0.1:9/x', { allowLoopback: true })).resolves.toMatchObject({ addresses: [{ address: '127.0.0.1' }] });
    await expect(assertPublicUrl('https://10.0.0.1/x', { allowLoopback: true })).rejects.toThrow(/private/);
    await expect(assertPublicUrl('http://93.184.215.14/x', { allowLoopback: true })).rejects.toThrow(/https/);
  });
});
