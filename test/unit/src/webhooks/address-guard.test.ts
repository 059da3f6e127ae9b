import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, refusedAddress } from '../../../../src/webhooks/address-guard.js';

const production = { allowLoopback: false };
const development = { allowLoopback: true };

describe('refusedAddress', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['0.0.0.0', /this network/],
    ['10.0.0.1', /private/],
    ['172.16.5.4', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['100.64.0.1', /CGNAT/],
    ['169.254.169.254', /link-local/],
    ['224.0.0.251', /multicast/],
    ['255.255.255.255', /reserved/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['ff02::1', /multicast/],
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:7f00:1', /loopback/],
    ['64:ff9b::a9fe:a9fe', /link-local/],
  ])('should refuse %s in production', (address, why) => {
    expect(refusedAddress(address, production)).toMatch(why);
  });

  it.each([
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '8.8.8.8',
    '2606:4700::6810:84e5',
    '::ffff:8.8.8.8',
  ])('should let %s through', (address) => {
    expect(refusedAddress(address, production)).toBeNull();
  });

  it('should admit loopback, and only loopback, when allowed', () => {
    expect(refusedAddress('127.0.0.1', development)).toBeNull();
    expect(refusedAddress('::1', development)).toBeNull();
    expect(refusedAddress('10.0.0.1', development)).toMatch(/private/);
    expect(refusedAddress('169.254.169.254', development)).toMatch(/link-local/);
  });
});

describe('checkWebhookUrl', () => {
  it.each([
    ['ftp://example.com/hook', /http or https/],
    ['javascript:alert(1)', /http or https/],
    ['not a url', /absolute URL/],
    [`https://example.com/${'a'.repeat(2100)}`, /2048/],
    ['https://user:pw@example.com/', /user name/],
    ['http://127.0.0.1:8080/hook', /loopback/],
    ['http://10.0.0.1/hook', /private/],
    ['http://169.254.169.254/latest/meta-data', /link-local/],
    ['http://[::1]:9000/', /loopback/],
    ['http://[fe80::1]/', /link-local/],
    ['http://localhost:3000/', /localhost/],
    ['http://api.localhost/', /localhost/],
    ['http://2130706433/', /loopback/], // 127.0.0.1 as one number: the URL parser normalises it
    ['http://intranet/', /public host/],
  ])('should refuse %s in production', (url, why) => {
    const checked = checkWebhookUrl(url, production);
    expect('refused' in checked && checked.refused).toMatch(why);
  });

  it('should accept public URLs, and loopback ones when allowed', () => {
    expect(checkWebhookUrl('https://hooks.example.com:8443/in?x=1', production)).toHaveProperty('url');
    expect(checkWebhookUrl('http://127.0.0.1:8080/hook', development)).toHaveProperty('url');
    expect(checkWebhookUrl('http://localhost:8080/hook', development)).toHaveProperty('url');
    expect(checkWebhookUrl('http://10.0.0.1/hook', development)).toHaveProperty('refused');
  });
});
