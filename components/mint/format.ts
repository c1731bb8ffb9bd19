export { shortHex } from '@/lib/mint/shortHex'
