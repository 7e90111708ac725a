package dev.a2atasks.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium (Debian's {@code chromium} and {@code chromedriver}, installed by
 * {@code .ci/run}), driven over WebDriver. Started with a fresh profile and without the
 * background networking that a closed network refuses.
 */
final class Browser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of(System.getProperty("a2a.test.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("a2a.test.chromedriver", "/usr/bin/chromedriver"));

    final ChromeDriver driver;
    private final Path profile;

    Browser() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("The browser tests need " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (Debian: apt-get install chromium chromium-driver; .ci/run installs them)");
        }
        profile = Files.createTempDirectory("a2a-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1400,900", "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    }

    Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    Object asyncScript(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
    }

    /** Waits for a condition; a timeout reports what the page showed then. */
    <T> T await(Duration timeout, Function<WebDriver, T> condition) {
        try {
            return new WebDriverWait(driver, timeout, Duration.ofMillis(50)).until(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            Object text = script("return document.body ? document.body.innerText : '(no body)'");
            StringBuilder console = new StringBuilder();
            driver.manage().logs().get("browser").forEach(entry -> console.append(entry.getLevel()).append(' ')
                    .append(entry.getMessage()).append('\n'));
            throw new AssertionError("Waited " + timeout + " in vain; the page at " + driver.getCurrentUrl() + " showed:\n"
                    + String.valueOf(text).lines().limit(40).reduce("", (a, b) -> a + b + "\n") + "its console:\n" + console, e);
        }
    }

    @Override
    public void close() throws Exception {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
