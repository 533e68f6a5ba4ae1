// Run: node src/simulate.ts (the simulator plays the service; nothing leaves this machine)
import { runAgainstSimulator } from './against-simulator.ts'

const lines = await runAgainstSimulator()
console.log(`${lines.length} event(s) handled`)
