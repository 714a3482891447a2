import SigilHTTP

#if AsyncHTTPClient
import AsyncHTTPClient
#endif

/// The transports every client test runs over against its loopback server: URLSession always,
/// and AsyncHTTPClient (both `HTTPClient.shared` and a client the test creates) when the package
/// is built with the trait (`swift test --traits AsyncHTTPClient`).
enum TestTransports {
    static var all: [(name: String, transport: any HTTPTransport)] {
        var list: [(name: String, transport: any HTTPTransport)] = [("URLSession", URLSessionHTTPTransport())]
        #if AsyncHTTPClient
        list.append(("AsyncHTTPClient (shared)", AsyncHTTPClientTransport()))
        list.append(("AsyncHTTPClient (own client)", AsyncHTTPClientTransport(client: ownClient)))
        #endif
        return list
    }

    #if AsyncHTTPClient
    /// A caller-supplied client that refuses redirects, as a careful caller configures it; lives
    /// for the test process.
    static let ownClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
    #endif
}
