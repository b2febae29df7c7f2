-- Three green smoke flows: they pass, yet none of them meets the planted problems.
describe("shop", function()
  it("opens the cart and checks out when signed in", function()
    app.reset{ facts = { isLoggedIn = true } }
    expect(router.push("cart").applied).to_be(true)
    expect(router.push("checkout").applied).to_be(true)
  end)

  it("asks signed-out people to sign in at checkout", function()
    router.push("cart")
    local result = router.push("checkout")
    expect(result.applied).to_be(false)
    expect(router.dialog()).to_be("signInRequired")
  end)

  it("shows the refund sheet and lets it go when nothing is pending", function()
    expect(router.sheet("refund").applied).to_be(true)
    expect(router.dismiss().applied).to_be(true)
  end)
end)
