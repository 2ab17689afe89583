// axe-core (WCAG 2.2 A and AA) over the back office's screens, each with a
// session of the row's role: the rows and the check are in accessibility-screens.ts.
import { registerScreens } from './accessibility-screens';

registerScreens((screen) => screen.operator !== undefined);
