// The one-reading properties of integrity.test.ts with a random seed (printed by fast-check when one fails).
import { describeOneReadingProperties } from './one-reading-properties.js';

describeOneReadingProperties('random seed', Date.now());
