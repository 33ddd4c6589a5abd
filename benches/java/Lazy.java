import com.sun.tools.javac.api.JavacTaskImpl;
import com.sun.tools.javac.comp.Todo;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Runs a main class from source, compiling each top-level class from the source path the
 * first time the JVM loads it, into a cache folder reused by later runs.
 *
 * <p>Why not {@code javac -sourcepath} once: javac then compiles, method bodies included,
 * every class the harness names transitively, and from Kafka's assignors that reaches the
 * whole request layer and, through it, libraries Debian does not package. Compiling one
 * file at a time, javac reads only the signatures of what the file names; the attribution
 * queue is emptied before code generation so that nothing else is attributed (javac's own
 * {@code Todo}, hence the {@code --add-exports} of jdk.compiler's api, comp and util
 * packages). Only the classes the benchmark actually runs are ever compiled.
 *
 * <p>{@code java --add-exports ... Lazy.java CACHE SOURCEPATH NAMES CLASSPATH MAIN [ARGS...]}:
 * SOURCEPATH, NAMES (sources javac may read for names only; never loaded) and CLASSPATH
 * (jars) are {@code :}-separated lists.
 */
public final class Lazy extends ClassLoader {
    private final Path cache;
    private final List<Path> sources;
    private final List<String> options;
    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager files = javac.getStandardFileManager(null, null, null);
    private int compiled;

    private Lazy(ClassLoader parent, Path cache, List<Path> sources, String javacSourcepath, String classpath) {
        super(parent);
        this.cache = cache;
        this.sources = sources;
        String cp = classpath.isEmpty() ? cache.toString() : classpath + File.pathSeparator + cache;
        this.options = Arrays.asList("-d", cache.toString(), "-sourcepath", javacSourcepath, "-classpath", cp,
            "-implicit:none", "-proc:none", "-nowarn", "-Xlint:none", "-encoding", "UTF-8");
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        Path classFile = cache.resolve(name.replace('.', '/') + ".class");
        if (!Files.exists(classFile)) {
            String top = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
            Path source = null;
            for (Path dir : sources) {
                Path p = dir.resolve(top.replace('.', '/') + ".java");
                if (Files.exists(p)) {
                    source = p;
                    break;
                }
            }
            if (source == null) throw new ClassNotFoundException(name);
            compile(source);
        }
        try {
            byte[] bytes = Files.readAllBytes(classFile);
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }

    private void compile(Path source) throws ClassNotFoundException {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavacTaskImpl task = (JavacTaskImpl) javac.getTask(null, files, diagnostics, options, null,
            files.getJavaFileObjects(source.toFile()));
        task.parse();
        Iterable<? extends Element> classes = task.enter();
        task.analyze(classes);
        Todo.instance(task.getContext()).retainFiles(List.of());
        task.generate(classes);
        StringBuilder errors = new StringBuilder();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) errors.append(d).append('\n');
        }
        if (errors.length() > 0) throw new ClassNotFoundException("javac failed on " + source + ":\n" + errors);
        compiled++;
    }

    private static List<Path> paths(String list) {
        List<Path> out = new ArrayList<>();
        for (String s : list.split(File.pathSeparator)) if (!s.isEmpty()) out.add(Path.of(s));
        return out;
    }

    public static void main(String[] args) throws Throwable {
        if (args.length < 5) {
            System.err.println("usage: java Lazy.java CACHE SOURCEPATH NAMES CLASSPATH MAIN [ARGS...]");
            System.exit(2);
        }
        Path cache = Path.of(args[0]);
        Files.createDirectories(cache);
        List<URL> jars = new ArrayList<>();
        for (Path jar : paths(args[3])) jars.add(jar.toUri().toURL());
        // Under the platform loader: nothing but the JDK, the jars and the compiled sources.
        ClassLoader libraries = new URLClassLoader(jars.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        String javacSourcepath = args[2].isEmpty() ? args[1] : args[1] + File.pathSeparator + args[2];
        Lazy loader = new Lazy(libraries, cache, paths(args[1]), javacSourcepath, args[3]);
        Thread.currentThread().setContextClassLoader(loader);
        try {
            loader.loadClass(args[4]).getMethod("main", String[].class).invoke(null, (Object) Arrays.copyOfRange(args, 5, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            if (loader.compiled > 0) System.err.println("(compiled " + loader.compiled + " source files into " + cache + ")");
        }
    }
}
