// axe-core (WCAG 2.2 A and AA) over the site's screens, guest and logged in, at
// 1280 and 390 px: the rows and the check are in accessibility-screens.ts.
import { registerScreens } from './accessibility-screens';

registerScreens((screen) => screen.operator === undefined);
