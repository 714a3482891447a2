import SigilHTTP
import SigilOCSP

#if AsyncHTTPClient
import AsyncHTTPClient
#endif

/// The OCSP transports every online test runs over against its loopback responder: URLSession always,
/// and AsyncHTTPClient (both `HTTPClient.shared` and a client the test creates) when the package
/// is built with the trait (`swift test --traits AsyncHTTPClient`).
enum OCSPTestTransports {
    static var all: [(name: String, transport: any OCSPTransport)] {
        var list: [(name: String, transport: any OCSPTransport)] = [("URLSession", URLSessionOCSPTransport())]
        #if AsyncHTTPClient
        list.append(("AsyncHTTPClient (shared)", AsyncHTTPClientOCSPTransport()))
        list.append(("AsyncHTTPClient (own client)", AsyncHTTPClientOCSPTransport(client: ownClient)))
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
