// The <script> build's global, typed through the `./iife` entry.
/// <reference types="@service-sdk/selector/iife" />
export const pick: typeof ServiceSelector.pickFolder = ServiceSelector.pickFolder
export const fromWindow: typeof ServiceSelector = window.ServiceSelector
