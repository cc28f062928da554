/**
 * Test support for an application's AX jobs. {@link io.ax.testing.AutoConfigureAxTest} runs the engine of a {@code
 * @SpringBootTest} on a clock that only the test moves, and {@link io.ax.testing.AxTester} moves it, running what
 * falls due on the way and returning once the engine has settled; {@link io.ax.testing.AxTestContext} makes the
 * context of a handler for a plain unit test; {@link io.ax.testing.AxAssertions} reads instances and dead letters.
 */
package io.ax.testing;
