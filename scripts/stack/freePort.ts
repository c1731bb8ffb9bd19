import net from 'node:net'

/** A free TCP port on the loopback interface (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      if (address === null || typeof address === 'string') return reject(new Error('no port'))
      server.close(() => resolve(address.port))
    })
  })
}

/** Whether a port on 127.0.0.1 can be bound right now. */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.unref()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** The preferred port when it is free (a restart keeps its URLs), else any free one. */
export async function pickPort(preferred?: number): Promise<number> {
  if (preferred && (await isPortFree(preferred))) return preferred
  return freePort()
}
