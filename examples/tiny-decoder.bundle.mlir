// A tiny decoder bundle written for coreai-plan's demo and tests, in the
// generic torch.export form of the real graphs (../shared/graphs/README.md):
// one layer, hidden 64, vocab 512, cache 64; @main decodes S=1, @prefill
// takes chunks of S=32, and both share weights and KV-cache state.
module attributes {coreai.source = "hand-written", coreai.model = "tiny-decoder", coreai.bundle = "main,prefill"} {
  func.func @main(%arg0: tensor<512x64xf16> {coreai.kind = "weight", coreai.name = "model.embed_tokens.weight"},
      %arg1: tensor<64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.input_layernorm.weight"},
      %arg2: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.q_proj.weight"},
      %arg3: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.k_proj.weight"},
      %arg4: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.v_proj.weight"},
      %arg5: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.o_proj.weight"},
      %arg6: tensor<128x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.mlp.up_proj.weight"},
      %arg7: tensor<1x1xi64> {coreai.kind = "input", coreai.name = "input_ids"},
      %arg8: tensor<1x64x64xf16> {coreai.kind = "state", coreai.name = "key_cache_0"},
      %arg9: tensor<1xi64> {coreai.kind = "input", coreai.name = "cache_position"},
      %arg10: tensor<1x64x64xf16> {coreai.kind = "state", coreai.name = "value_cache_0"},
      %arg11: tensor<64x128xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.mlp.down_proj.weight"})
      -> (tensor<1x64x64xf16> {coreai.kind = "state_update", coreai.name = "key_cache_0"}, tensor<1x64x64xf16> {coreai.kind = "state_update", coreai.name = "value_cache_0"}, tensor<1x1x512xf16> {coreai.kind = "output"}) attributes {coreai.seq_len = 1 : i64} {
    %1 = "torch.aten.embedding"(%arg0, %arg7) {coreai.overload = "default"} : (tensor<512x64xf16>, tensor<1x1xi64>) -> tensor<1x1x64xf16>
    %2 = "torch.aten.pow"(%1) {coreai.overload = "default"} : (tensor<1x1x64xf16>) -> tensor<1x1x64xf16>
    %3 = "torch.aten.mean"(%2) {coreai.overload = "default"} : (tensor<1x1x64xf16>) -> tensor<1x1x1xf16>
    %4 = "torch.aten.add"(%3) {coreai.overload = "default"} : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
    %5 = "torch.aten.rsqrt"(%4) {coreai.overload = "default"} : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
    %6 = "torch.aten.mul"(%1, %5) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<1x1x1xf16>) -> tensor<1x1x64xf16>
    %7 = "torch.aten.mul"(%6, %arg1) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<64xf16>) -> tensor<1x1x64xf16>
    %8 = "torch.aten.view"(%7) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x64xf16>) -> tensor<1x64xf16>
    %9 = "torch.aten.permute"(%arg2) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %10 = "torch.aten.mm"(%8, %9) {coreai.overload = "default"} : (tensor<1x64xf16>, tensor<64x64xf16>) -> tensor<1x64xf16>
    %11 = "torch.aten.view"(%10) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x64xf16>) -> tensor<1x1x64xf16>
    %12 = "torch.aten.view"(%7) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x64xf16>) -> tensor<1x64xf16>
    %13 = "torch.aten.permute"(%arg3) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %14 = "torch.aten.mm"(%12, %13) {coreai.overload = "default"} : (tensor<1x64xf16>, tensor<64x64xf16>) -> tensor<1x64xf16>
    %15 = "torch.aten.view"(%14) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x64xf16>) -> tensor<1x1x64xf16>
    %16 = "torch.aten.view"(%7) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x64xf16>) -> tensor<1x64xf16>
    %17 = "torch.aten.permute"(%arg4) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %18 = "torch.aten.mm"(%16, %17) {coreai.overload = "default"} : (tensor<1x64xf16>, tensor<64x64xf16>) -> tensor<1x64xf16>
    %19 = "torch.aten.view"(%18) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x64xf16>) -> tensor<1x1x64xf16>
    %20 = "torch.aten.index_put"(%arg8, %arg9, %15) {coreai.overload = "default"} : (tensor<1x64x64xf16>, tensor<1xi64>, tensor<1x1x64xf16>) -> tensor<1x64x64xf16>
    %21 = "torch.aten.index_put"(%arg10, %arg9, %19) {coreai.overload = "default"} : (tensor<1x64x64xf16>, tensor<1xi64>, tensor<1x1x64xf16>) -> tensor<1x64x64xf16>
    %22 = "torch.aten.permute"(%20) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x64x64xf16>) -> tensor<1x64x64xf16>
    %23 = "torch.aten.bmm"(%11, %22) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<1x64x64xf16>) -> tensor<1x1x64xf32>
    %24 = "torch.aten._softmax"(%23) {coreai.overload = "default"} : (tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
    %25 = "torch.aten._to_copy"(%24) {coreai.overload = "default"} : (tensor<1x1x64xf32>) -> tensor<1x1x64xf16>
    %26 = "torch.aten.bmm"(%25, %21) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<1x64x64xf16>) -> tensor<1x1x64xf16>
    %27 = "torch.aten.view"(%26) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x64xf16>) -> tensor<1x64xf16>
    %28 = "torch.aten.permute"(%arg5) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %29 = "torch.aten.mm"(%27, %28) {coreai.overload = "default"} : (tensor<1x64xf16>, tensor<64x64xf16>) -> tensor<1x64xf16>
    %30 = "torch.aten.view"(%29) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x64xf16>) -> tensor<1x1x64xf16>
    %31 = "torch.aten.add"(%1, %30) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<1x1x64xf16>) -> tensor<1x1x64xf16>
    %32 = "torch.aten.pow"(%31) {coreai.overload = "default"} : (tensor<1x1x64xf16>) -> tensor<1x1x64xf16>
    %33 = "torch.aten.mean"(%32) {coreai.overload = "default"} : (tensor<1x1x64xf16>) -> tensor<1x1x1xf16>
    %34 = "torch.aten.add"(%33) {coreai.overload = "default"} : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
    %35 = "torch.aten.rsqrt"(%34) {coreai.overload = "default"} : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
    %36 = "torch.aten.mul"(%31, %35) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<1x1x1xf16>) -> tensor<1x1x64xf16>
    %37 = "torch.aten.mul"(%36, %arg1) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<64xf16>) -> tensor<1x1x64xf16>
    %38 = "torch.aten.view"(%37) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x64xf16>) -> tensor<1x64xf16>
    %39 = "torch.aten.permute"(%arg6) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<128x64xf16>) -> tensor<64x128xf16>
    %40 = "torch.aten.mm"(%38, %39) {coreai.overload = "default"} : (tensor<1x64xf16>, tensor<64x128xf16>) -> tensor<1x128xf16>
    %41 = "torch.aten.view"(%40) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x128xf16>) -> tensor<1x1x128xf16>
    %42 = "torch.aten.gelu"(%41) {coreai.overload = "default"} : (tensor<1x1x128xf16>) -> tensor<1x1x128xf16>
    %43 = "torch.aten.view"(%37) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x64xf16>) -> tensor<1x64xf16>
    %44 = "torch.aten.permute"(%arg6) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<128x64xf16>) -> tensor<64x128xf16>
    %45 = "torch.aten.mm"(%43, %44) {coreai.overload = "default"} : (tensor<1x64xf16>, tensor<64x128xf16>) -> tensor<1x128xf16>
    %46 = "torch.aten.view"(%45) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x128xf16>) -> tensor<1x1x128xf16>
    %47 = "torch.aten.mul"(%42, %46) {coreai.overload = "default"} : (tensor<1x1x128xf16>, tensor<1x1x128xf16>) -> tensor<1x1x128xf16>
    %48 = "torch.aten.view"(%47) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x128xf16>) -> tensor<1x128xf16>
    %49 = "torch.aten.permute"(%arg11) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x128xf16>) -> tensor<128x64xf16>
    %50 = "torch.aten.mm"(%48, %49) {coreai.overload = "default"} : (tensor<1x128xf16>, tensor<128x64xf16>) -> tensor<1x64xf16>
    %51 = "torch.aten.view"(%50) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x64xf16>) -> tensor<1x1x64xf16>
    %52 = "torch.aten.add"(%31, %51) {coreai.overload = "default"} : (tensor<1x1x64xf16>, tensor<1x1x64xf16>) -> tensor<1x1x64xf16>
    %53 = "torch.aten.view"(%52) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x1x64xf16>) -> tensor<1x64xf16>
    %54 = "torch.aten.permute"(%arg0) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<512x64xf16>) -> tensor<64x512xf16>
    %55 = "torch.aten.mm"(%53, %54) {coreai.overload = "default"} : (tensor<1x64xf16>, tensor<64x512xf16>) -> tensor<1x512xf16>
    %56 = "torch.aten.view"(%55) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x512xf16>) -> tensor<1x1x512xf16>
    %57 = "torch.aten.div"(%56) {coreai.overload = "default"} : (tensor<1x1x512xf16>) -> tensor<1x1x512xf16>
    %58 = "torch.aten.tanh"(%57) {coreai.overload = "default"} : (tensor<1x1x512xf16>) -> tensor<1x1x512xf16>
    %59 = "torch.aten.mul"(%58) {coreai.overload = "default"} : (tensor<1x1x512xf16>) -> tensor<1x1x512xf16>
    return %20, %21, %59 : tensor<1x64x64xf16>, tensor<1x64x64xf16>, tensor<1x1x512xf16>
  }

  func.func @prefill(%arg0: tensor<512x64xf16> {coreai.kind = "weight", coreai.name = "model.embed_tokens.weight"},
      %arg1: tensor<64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.input_layernorm.weight"},
      %arg2: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.q_proj.weight"},
      %arg3: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.k_proj.weight"},
      %arg4: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.v_proj.weight"},
      %arg5: tensor<64x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.self_attn.o_proj.weight"},
      %arg6: tensor<128x64xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.mlp.up_proj.weight"},
      %arg7: tensor<1x32xi64> {coreai.kind = "input", coreai.name = "input_ids"},
      %arg8: tensor<1x64x64xf16> {coreai.kind = "state", coreai.name = "key_cache_0"},
      %arg9: tensor<32xi64> {coreai.kind = "input", coreai.name = "cache_position"},
      %arg10: tensor<1x64x64xf16> {coreai.kind = "state", coreai.name = "value_cache_0"},
      %arg11: tensor<64x128xf16> {coreai.kind = "weight", coreai.name = "model.layers.0.mlp.down_proj.weight"})
      -> (tensor<1x64x64xf16> {coreai.kind = "state_update", coreai.name = "key_cache_0"}, tensor<1x64x64xf16> {coreai.kind = "state_update", coreai.name = "value_cache_0"}, tensor<1x32x512xf16> {coreai.kind = "output"}) attributes {coreai.seq_len = 32 : i64} {
    %1 = "torch.aten.embedding"(%arg0, %arg7) {coreai.overload = "default"} : (tensor<512x64xf16>, tensor<1x32xi64>) -> tensor<1x32x64xf16>
    %2 = "torch.aten.pow"(%1) {coreai.overload = "default"} : (tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %3 = "torch.aten.mean"(%2) {coreai.overload = "default"} : (tensor<1x32x64xf16>) -> tensor<1x32x1xf16>
    %4 = "torch.aten.add"(%3) {coreai.overload = "default"} : (tensor<1x32x1xf16>) -> tensor<1x32x1xf16>
    %5 = "torch.aten.rsqrt"(%4) {coreai.overload = "default"} : (tensor<1x32x1xf16>) -> tensor<1x32x1xf16>
    %6 = "torch.aten.mul"(%1, %5) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<1x32x1xf16>) -> tensor<1x32x64xf16>
    %7 = "torch.aten.mul"(%6, %arg1) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<64xf16>) -> tensor<1x32x64xf16>
    %8 = "torch.aten.view"(%7) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
    %9 = "torch.aten.permute"(%arg2) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %10 = "torch.aten.mm"(%8, %9) {coreai.overload = "default"} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf16>
    %11 = "torch.aten.view"(%10) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x64xf16>) -> tensor<1x32x64xf16>
    %12 = "torch.aten.view"(%7) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
    %13 = "torch.aten.permute"(%arg3) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %14 = "torch.aten.mm"(%12, %13) {coreai.overload = "default"} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf16>
    %15 = "torch.aten.view"(%14) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x64xf16>) -> tensor<1x32x64xf16>
    %16 = "torch.aten.view"(%7) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
    %17 = "torch.aten.permute"(%arg4) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %18 = "torch.aten.mm"(%16, %17) {coreai.overload = "default"} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf16>
    %19 = "torch.aten.view"(%18) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x64xf16>) -> tensor<1x32x64xf16>
    %20 = "torch.aten.index_put"(%arg8, %arg9, %15) {coreai.overload = "default"} : (tensor<1x64x64xf16>, tensor<32xi64>, tensor<1x32x64xf16>) -> tensor<1x64x64xf16>
    %21 = "torch.aten.index_put"(%arg10, %arg9, %19) {coreai.overload = "default"} : (tensor<1x64x64xf16>, tensor<32xi64>, tensor<1x32x64xf16>) -> tensor<1x64x64xf16>
    %22 = "torch.aten.permute"(%20) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x64x64xf16>) -> tensor<1x64x64xf16>
    %23 = "torch.aten.bmm"(%11, %22) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<1x64x64xf16>) -> tensor<1x32x64xf32>
    %24 = "torch.aten._softmax"(%23) {coreai.overload = "default"} : (tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %25 = "torch.aten._to_copy"(%24) {coreai.overload = "default"} : (tensor<1x32x64xf32>) -> tensor<1x32x64xf16>
    %26 = "torch.aten.bmm"(%25, %21) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<1x64x64xf16>) -> tensor<1x32x64xf16>
    %27 = "torch.aten.view"(%26) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
    %28 = "torch.aten.permute"(%arg5) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %29 = "torch.aten.mm"(%27, %28) {coreai.overload = "default"} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf16>
    %30 = "torch.aten.view"(%29) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x64xf16>) -> tensor<1x32x64xf16>
    %31 = "torch.aten.add"(%1, %30) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %32 = "torch.aten.pow"(%31) {coreai.overload = "default"} : (tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %33 = "torch.aten.mean"(%32) {coreai.overload = "default"} : (tensor<1x32x64xf16>) -> tensor<1x32x1xf16>
    %34 = "torch.aten.add"(%33) {coreai.overload = "default"} : (tensor<1x32x1xf16>) -> tensor<1x32x1xf16>
    %35 = "torch.aten.rsqrt"(%34) {coreai.overload = "default"} : (tensor<1x32x1xf16>) -> tensor<1x32x1xf16>
    %36 = "torch.aten.mul"(%31, %35) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<1x32x1xf16>) -> tensor<1x32x64xf16>
    %37 = "torch.aten.mul"(%36, %arg1) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<64xf16>) -> tensor<1x32x64xf16>
    %38 = "torch.aten.view"(%37) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
    %39 = "torch.aten.permute"(%arg6) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<128x64xf16>) -> tensor<64x128xf16>
    %40 = "torch.aten.mm"(%38, %39) {coreai.overload = "default"} : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
    %41 = "torch.aten.view"(%40) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x128xf16>) -> tensor<1x32x128xf16>
    %42 = "torch.aten.gelu"(%41) {coreai.overload = "default"} : (tensor<1x32x128xf16>) -> tensor<1x32x128xf16>
    %43 = "torch.aten.view"(%37) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
    %44 = "torch.aten.permute"(%arg6) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<128x64xf16>) -> tensor<64x128xf16>
    %45 = "torch.aten.mm"(%43, %44) {coreai.overload = "default"} : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
    %46 = "torch.aten.view"(%45) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x128xf16>) -> tensor<1x32x128xf16>
    %47 = "torch.aten.mul"(%42, %46) {coreai.overload = "default"} : (tensor<1x32x128xf16>, tensor<1x32x128xf16>) -> tensor<1x32x128xf16>
    %48 = "torch.aten.view"(%47) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x128xf16>) -> tensor<32x128xf16>
    %49 = "torch.aten.permute"(%arg11) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<64x128xf16>) -> tensor<128x64xf16>
    %50 = "torch.aten.mm"(%48, %49) {coreai.overload = "default"} : (tensor<32x128xf16>, tensor<128x64xf16>) -> tensor<32x64xf16>
    %51 = "torch.aten.view"(%50) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x64xf16>) -> tensor<1x32x64xf16>
    %52 = "torch.aten.add"(%31, %51) {coreai.overload = "default"} : (tensor<1x32x64xf16>, tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %53 = "torch.aten.view"(%52) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
    %54 = "torch.aten.permute"(%arg0) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<512x64xf16>) -> tensor<64x512xf16>
    %55 = "torch.aten.mm"(%53, %54) {coreai.overload = "default"} : (tensor<32x64xf16>, tensor<64x512xf16>) -> tensor<32x512xf16>
    %56 = "torch.aten.view"(%55) {coreai.overload = "default", coreai.alias_of = [0]} : (tensor<32x512xf16>) -> tensor<1x32x512xf16>
    %57 = "torch.aten.div"(%56) {coreai.overload = "default"} : (tensor<1x32x512xf16>) -> tensor<1x32x512xf16>
    %58 = "torch.aten.tanh"(%57) {coreai.overload = "default"} : (tensor<1x32x512xf16>) -> tensor<1x32x512xf16>
    %59 = "torch.aten.mul"(%58) {coreai.overload = "default"} : (tensor<1x32x512xf16>) -> tensor<1x32x512xf16>
    return %20, %21, %59 : tensor<1x64x64xf16>, tensor<1x64x64xf16>, tensor<1x32x512xf16>
  }

}
