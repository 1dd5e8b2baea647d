//! Tracing and OpenTelemetry: structured logs always, OTLP export when the standard
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and W3C trace context carried across HTTP, gRPC and AMQP.

use std::collections::HashMap;

use opentelemetry::{
    Context, global,
    propagation::{Extractor, Injector},
    trace::TracerProvider as _,
};
use opentelemetry_sdk::{Resource, propagation::TraceContextPropagator, trace::SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::{EnvFilter, Layer, layer::SubscriberExt, util::SubscriberInitExt};

/// Keeps the exporter alive; flushes and shuts it down when dropped.
#[derive(Debug)]
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl TelemetryGuard {
    /// Exports every finished span now (tests call it before reading the receiver).
    pub fn flush(&self) {
        if let Some(provider) = &self.provider
            && let Err(err) = provider.force_flush()
        {
            eprintln!("telemetry flush failed: {err}");
        }
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take()
            && let Err(err) = provider.shutdown()
        {
            eprintln!("telemetry shutdown failed: {err}");
        }
    }
}

/// Installs the global subscriber: logs (pretty, or JSON with `LOG_FORMAT=json`), and OTLP
/// traces when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-specific variable) is set.
pub fn init(service_name: &str) -> anyhow::Result<TelemetryGuard> {
    let export = [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    ]
    .iter()
    .any(|name| std::env::var(name).is_ok_and(|v| !v.is_empty()));
    init_with(service_name, export.then_some(Exporter::FromEnvironment))
}

/// Where spans go when exported.
#[derive(Debug, Clone)]
pub enum Exporter {
    /// The standard `OTEL_*` variables.
    FromEnvironment,
    /// An explicit OTLP/gRPC endpoint (tests run their own receiver).
    Endpoint(String),
}

/// [`init`] with an explicit exporter choice.
pub fn init_with(service_name: &str, exporter: Option<Exporter>) -> anyhow::Result<TelemetryGuard> {
    global::set_text_map_propagator(TraceContextPropagator::new());
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        EnvFilter::new("info,sqlx=warn,lapin=warn,h2=warn,tower=warn,hyper=warn")
    });
    let json = std::env::var("LOG_FORMAT").is_ok_and(|v| v == "json");
    let fmt = if json {
        tracing_subscriber::fmt::layer()
            .json()
            .with_current_span(true)
            .boxed()
    } else {
        // Colours for a terminal only: ./dev writes the logs to files.
        tracing_subscriber::fmt::layer()
            .compact()
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .boxed()
    };

    let (otel_layer, provider) = if let Some(choice) = exporter {
        use opentelemetry_otlp::WithExportConfig;
        let builder = opentelemetry_otlp::SpanExporter::builder().with_tonic();
        let exporter = match choice {
            Exporter::FromEnvironment => builder.build()?,
            Exporter::Endpoint(url) => builder.with_endpoint(url).build()?,
        };
        let service =
            std::env::var("OTEL_SERVICE_NAME").unwrap_or_else(|_| service_name.to_owned());
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(Resource::builder().with_service_name(service).build())
            .build();
        global::set_tracer_provider(provider.clone());
        let tracer = provider.tracer("evidentia");
        (
            Some(tracing_opentelemetry::layer().with_tracer(tracer)),
            Some(provider),
        )
    } else {
        (None, None)
    };

    tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .with(otel_layer)
        .try_init()?;
    Ok(TelemetryGuard { provider })
}

/// The current span's trace context as W3C headers (`traceparent`, `tracestate`).
pub fn current_context_headers() -> HashMap<String, String> {
    let context = tracing::Span::current().context();
    let mut headers = HashMap::new();
    global::get_text_map_propagator(|propagator| {
        propagator.inject_context(&context, &mut MapInjector(&mut headers))
    });
    headers
}

/// Makes `span` a child of the trace context found in `carrier`, when there is one.
pub fn set_parent_from(span: &tracing::Span, carrier: &dyn Extractor) {
    let parent: Context = global::get_text_map_propagator(|propagator| propagator.extract(carrier));
    if let Err(err) = span.set_parent(parent) {
        tracing::debug!(error = ?err, "cannot set span parent");
    }
}

/// Writes the current trace context into any header-like map.
pub fn inject_current(injector: &mut dyn Injector) {
    let context = tracing::Span::current().context();
    global::get_text_map_propagator(|propagator| propagator.inject_context(&context, injector));
}

struct MapInjector<'a>(&'a mut HashMap<String, String>);

impl Injector for MapInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }
}

/// Reads trace context from a plain map (the outbox's stored headers).
pub struct MapExtractor<'a>(pub &'a HashMap<String, String>);

impl Extractor for MapExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

/// Reads trace context from HTTP headers (also gRPC metadata, which travels as HTTP/2 headers).
pub struct HeaderExtractor<'a>(pub &'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}
