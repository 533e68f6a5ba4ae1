import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import { createOpenClient } from '@service-sdk/open'
const args = JSON.parse(process.argv[2])
await createOpenClient({ openUrl: args.openUrl, token: args.token }).uploadMany(args.warmup).done()
await createOpenClient({ openUrl: args.openUrl, token: args.token }).uploadMany(args.warmup).done()
const s = new Session(); s.connect()
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 100 }); await s.post('Profiler.start')
const cpu = process.cpuUsage(); const t = performance.now()
const r = await createOpenClient({ openUrl: args.openUrl, token: args.token }).uploadMany(args.files).done()
const c = process.cpuUsage(cpu)
const { profile } = await s.post('Profiler.stop')
writeFileSync('/tmp/upl/timed.cpuprofile', JSON.stringify(profile))
console.log(JSON.stringify({ seconds: (performance.now() - t) / 1000, cpu: (c.user + c.system) / 1e6, failed: r.filter(x => x.status !== 'fulfilled').length }))
