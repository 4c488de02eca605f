// The README's "sign" block: the lines between the readme markers are the README's, written by npm run docs:readme.
// #region readme
import { sign } from 'payment-gateway-sdk';
sign({ mchNo: 'M1621873433953', appId: '60cc09bce4b0f1c0b83761c9', amount: 100 }, 'test-api-key');
// '9717AAF3E5A9D564ED93559644E8D620'
// #endregion readme

export {};
