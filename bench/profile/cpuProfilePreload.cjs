'use strict'
// Loaded into the web and worker processes by `npm run bench` only (NODE_OPTIONS=--require,
// because --cpu-prof is not allowed in NODE_OPTIONS). Does nothing unless
// MINTDESK_BENCH_PROFILE_DIR is set. SIGUSR2 toggles V8's sampling CPU profiler: the first
// signal starts it, the next one stops it and writes <dir>/<pid>-<n>.cpuprofile (the
// Chrome DevTools format) and <dir>/<pid>-<n>.memory.json (process.memoryUsage() and V8's
// heap spaces at that moment, then again after a full garbage collection: the live set). So the bench profiles exactly the window it chooses
// and the measured runs carry no profiler overhead.
const { isMainThread } = require('node:worker_threads')
const dir = process.env.MINTDESK_BENCH_PROFILE_DIR
if (dir && isMainThread) {
  const fs = require('node:fs')
  const path = require('node:path')
  const inspector = require('node:inspector')
  const v8 = require('node:v8')
  // a gc() for the live-set figure, without starting the process with --expose-gc
  v8.setFlagsFromString('--expose-gc')
  const gc = require('node:vm').runInNewContext('gc')
  const snapshot = () => ({
    memoryUsage: process.memoryUsage(),
    spaces: v8
      .getHeapSpaceStatistics()
      .map((s) => ({ name: s.space_name, size: s.space_size, used: s.space_used_size })),
  })
  const intervalUs = Number(process.env.MINTDESK_BENCH_PROFILE_INTERVAL_US || 1000)
  let session
  let running = false
  let count = 0
  process.on('SIGUSR2', () => {
    if (!session) {
      session = new inspector.Session()
      session.connect()
    }
    if (!running) {
      running = true
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: intervalUs }, () => session.post('Profiler.start')),
      )
      return
    }
    running = false
    session.post('Profiler.stop', (err, result) => {
      if (err || !result) return
      fs.mkdirSync(dir, { recursive: true })
      const file = path.join(dir, `${process.pid}-${++count}.cpuprofile`)
      const before = snapshot()
      gc()
      const memory = { ...before, afterGc: snapshot() }
      fs.writeFileSync(file.replace(/\.cpuprofile$/, '.memory.json'), JSON.stringify(memory))
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(result.profile))
      fs.renameSync(`${file}.tmp`, file)
    })
  })
}
