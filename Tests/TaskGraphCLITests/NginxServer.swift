import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A real nginx (Debian's `nginx-light`, which has the WebDAV module) serving a remote cache on
/// 127.0.0.1 at a free port: `/cache/` takes `PUT`s, `/private/` also wants
/// `Authorization: Bearer secret`. Its configuration, files, temporary files and logs live in a
/// temporary prefix; it runs in the foreground (`daemon off`) and is stopped by `stop()` or
/// when this object goes away.
final class NginxServer: @unchecked Sendable {
    // @unchecked: `process` is started in `init` and afterwards only signalled and waited for
    // through Foundation's thread-safe accessors; the paths and port are immutable.
    let port: Int
    /// The prefix: `data/` holds what was stored, `logs/access.log` every request.
    let prefix: URL
    private let process = Process()

    /// Starts nginx and waits until it accepts connections.
    init() throws {
        prefix = try ScratchDirectories.make("taskgraph-nginx")
        for directory in ["data", "logs", "tmp"] {
            try FileManager.default.createDirectory(
                at: prefix.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        port = try Self.freePort()
        let root = prefix.path
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        let configuration = """
            daemon off;
            user \(user);
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/logs/error.log;
            events { worker_connections 256; }
            http {
              access_log \(root)/logs/access.log;
              client_body_temp_path \(root)/tmp/body;
              proxy_temp_path \(root)/tmp/proxy;
              fastcgi_temp_path \(root)/tmp/fastcgi;
              uwsgi_temp_path \(root)/tmp/uwsgi;
              scgi_temp_path \(root)/tmp/scgi;
              client_max_body_size 0;
              server {
                listen 127.0.0.1:\(port);
                root \(root)/data;
                location /cache/ { dav_methods PUT; create_full_put_path on; }
                location /private/ {
                  if ($http_authorization != "Bearer secret") { return 401; }
                  dav_methods PUT;
                  create_full_put_path on;
                }
              }
            }
            """
        try configuration.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", root, "-c", root + "/nginx.conf"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<400 where !Self.accepts(port) {
            guard process.isRunning else { throw CocoaError(.executableLoad) }
            usleep(10_000)
        }
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT/` followed by `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Stops nginx (SIGTERM: it exits at once) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// The requests served so far: method, path and status, in order.
    func requests() -> [(method: String, path: String, status: Int)] {
        let log = (try? String(contentsOf: prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            let quoted = line.split(separator: "\"")
            guard quoted.count >= 3 else { return nil }
            let request = quoted[1].split(separator: " ")
            guard request.count >= 2, let status = Int(quoted[2].split(separator: " ").first ?? "") else { return nil }
            return (String(request[0]), String(request[1]), status)
        }
    }

    /// The file the server keeps for `path` (e.g. `cache/cas/<hex>`).
    func stored(_ path: String) -> URL { prefix.appendingPathComponent("data/" + path) }

    /// A port no one listens on now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on `port`.
    private static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
