//! One sign-up is one trace: W3C trace context crosses gateway -> gRPC -> outbox -> AMQP ->
//! consumers, and OTLP export delivers it to a collector (a small receiver run by the test).

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::Duration,
};

use crate::support::Stack;
use evidentia_common::{telemetry, testing};
use opentelemetry_proto::tonic::{
    collector::trace::v1::{
        ExportTraceServiceRequest, ExportTraceServiceResponse,
        trace_service_server::{TraceService, TraceServiceServer},
    },
    common::v1::any_value::Value,
    trace::v1::Span,
};
use tokio_stream::wrappers::TcpListenerStream;

#[derive(Default, Clone)]
struct Receiver {
    spans: Arc<Mutex<Vec<Span>>>,
}

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let mut spans = self.spans.lock().expect("lock");
        for resource in request.into_inner().resource_spans {
            for scope in resource.scope_spans {
                spans.extend(scope.spans);
            }
        }
        Ok(tonic::Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

fn attribute(span: &Span, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| match kv.value.as_ref()?.value.as_ref()? {
            Value::StringValue(s) => Some(s.clone()),
            _ => None,
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_sign_up_is_one_trace_across_http_grpc_outbox_and_amqp() {
    let receiver = Receiver::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let endpoint = format!("http://{}", listener.local_addr().expect("addr"));
    let server = receiver.clone();
    tokio::spawn(async move {
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(server))
            .serve_with_incoming(TcpListenerStream::new(listener))
            .await
    });
    let guard = telemetry::init_with(
        "evidentia-test",
        Some(telemetry::Exporter::Endpoint(endpoint)),
    )
    .expect("telemetry");

    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    testing::eventually("the Stripe customer", Duration::from_secs(20), || async {
        let (_, profile) = stack.get_auth("accounts/me/", &user.access).await;
        profile["stripe_customer_id"].as_str().map(str::to_owned)
    })
    .await;

    let spans = receiver.spans.clone();
    let trace = testing::eventually(
        "the sign-up's spans at the collector",
        Duration::from_secs(30),
        || {
            guard.flush();
            let spans = spans.lock().expect("lock").clone();
            async move {
                let root = spans
                    .iter()
                    .find(|s| s.name == "POST /api/accounts/create/")?;
                let in_trace: Vec<&Span> = spans
                    .iter()
                    .filter(|s| s.trace_id == root.trace_id)
                    .collect();
                let names: HashSet<String> = in_trace.iter().map(|s| s.name.clone()).collect();
                let consumers: HashSet<String> = in_trace
                    .iter()
                    .filter_map(|s| attribute(s, "messaging.consumer.group.name"))
                    .collect();
                let complete = names
                    .contains("evidentia.accounts.v1.AccountsService/CreateAccount")
                    && names.iter().any(|n| n == "amqp.publish")
                    && consumers.contains("payments.create-customer")
                    && consumers.contains("referrals.create-referral-code");
                complete.then(|| (root.trace_id.clone(), names))
            }
        },
    )
    .await;
    assert_eq!(trace.0.len(), 16, "a W3C trace id");
    assert!(
        trace.1.contains("accounts.account_created process"),
        "{:?}",
        trace.1
    );
}
