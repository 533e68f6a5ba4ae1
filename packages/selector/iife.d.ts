/**
 * Types for the `<script>` build (`@service-sdk/selector/iife`, `dist/service-selector.iife.js`):
 * it defines the global `ServiceSelector`, the same API as the module entry.
 *
 * ```ts
 * /// <reference types="@service-sdk/selector/iife" />
 * const choice = await ServiceSelector.pickFolder({ appUrl })
 * ```
 */
import type * as Selector from './dist/index.js'

declare global {
  /** The selector library, defined by `service-selector.iife.js`. */
  var ServiceSelector: typeof Selector
}
