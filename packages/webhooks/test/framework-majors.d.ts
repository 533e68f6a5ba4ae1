// `express4` and `koa2` are Express 4 and Koa 2, installed under npm aliases (package.json) so that
// the adapter tests also run against the oldest majors the peer ranges allow. They are typed as the
// current majors: the adapters and their tests use only what both majors share.
declare module 'express4' {
  import express = require('express')
  export = express
}

declare module 'koa2' {
  import Koa = require('koa')
  export = Koa
}
